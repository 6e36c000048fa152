/// A TOML table: its keys in the order the file gives them.
///
/// ```swift
/// let api = document.root["api"]?.table
/// for (key, value) in api?.entries ?? [] { ... }
/// ```
package struct TOMLTable: Sendable, Equatable {
  /// The table's keys and values, in file order; each key once.
  package private(set) var entries: [(key: String, value: TOMLValue)] = []

  package init() {}

  package init(_ entries: [(key: String, value: TOMLValue)]) {
    for entry in entries { self.entries.append(entry) }
  }

  package subscript(key: String) -> TOMLValue? {
    entries.first { $0.key == key }?.value
  }

  package var keys: [String] { entries.map(\.key) }

  package var isEmpty: Bool { entries.isEmpty }

  package static func == (left: TOMLTable, right: TOMLTable) -> Bool {
    left.entries.count == right.entries.count
      && zip(left.entries, right.entries).allSatisfy { $0.key == $1.key && $0.value == $1.value }
  }
}
