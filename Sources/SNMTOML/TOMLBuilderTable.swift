import SNMWire

/// A table while the file is read: it knows how it was defined, which decides what may still be
/// added to it (TOML's rules), and becomes a `TOMLTable` when the file is done.
final class TOMLBuilderTable {
  enum Definition {
    /// Made as the parent of a header (`[a]` for `[a.b]`): a header of its own may still come.
    case implicit
    /// `[a]` or an array of tables' element.
    case header
    /// Made by a dotted key (`a.b = 1`): more dotted keys may add to it, headers may not.
    case dotted
    /// `{ ... }`: closed once written.
    case inline
  }

  enum Slot {
    case value(TOMLValue)
    case table(TOMLBuilderTable)
    case tables([TOMLBuilderTable], TOMLPosition)
  }

  var definition: Definition
  var position: TOMLPosition
  /// The table's dotted key from the document's root (an inline table's from its key).
  var path: [String]
  var keys: [String] = []
  var slots: [String: Slot] = [:]

  init(definition: Definition, position: TOMLPosition, path: [String] = []) {
    self.definition = definition
    self.position = position
    self.path = path
  }

  func add(_ key: String, _ slot: Slot) {
    keys.append(key)
    slots[key] = slot
  }

  /// Puts `value` under the dotted `key`, making the tables before its last part.
  func insert(
    _ key: [(name: String, position: TOMLPosition)], _ value: TOMLValue, at position: TOMLPosition,
    file: String
  ) throws(TOMLError) {
    var table = self
    let names = key.map(\.name)
    for (offset, part) in key.enumerated() {
      let shown = Self.display(path + Array(names[...offset]))
      let isLast = offset == key.count - 1
      switch table.slots[part.name] {
      case nil where isLast:
        table.add(part.name, .value(value))
      case nil:
        let child = TOMLBuilderTable(
          definition: .dotted, position: part.position, path: path + Array(names[...offset]))
        table.add(part.name, .table(child))
        table = child
      case .table(let child) where !isLast && child.definition == .dotted:
        table = child
      case .value(let existing):
        throw TOMLError(
          file: file, at: part.position,
          isLast
            ? "the key \(shown) is given twice (first at \(existing.position))"
            : "the key \(shown) is a value (at \(existing.position)), not a table")
      case .table(let child):
        throw TOMLError(
          file: file, at: part.position,
          "the table \(shown) is already defined (at \(child.position))"
            + (isLast ? "" : "; dotted keys cannot add to it"))
      case .tables(_, let first):
        throw TOMLError(
          file: file, at: part.position,
          "\(shown) is an array of tables (at \(first)); dotted keys cannot add to it")
      }
    }
  }

  /// The table `[key]` or a new element of `[[key]]` names, made as TOML allows.
  func open(_ key: [String], array: Bool, at position: TOMLPosition, file: String)
    throws(TOMLError) -> TOMLBuilderTable
  {
    var table = self
    let header = array ? "[[\(Self.display(key))]]" : "[\(Self.display(key))]"
    for (offset, name) in key.enumerated() {
      let shown = Self.display(Array(key[...offset]))
      if offset == key.count - 1 { break }
      switch table.slots[name] {
      case nil:
        let child = TOMLBuilderTable(
          definition: .implicit, position: position, path: Array(key[...offset]))
        table.add(name, .table(child))
        table = child
      case .table(let child):
        table = child
      case .tables(let elements, _):
        guard let last = elements.last else { return table }
        table = last
      case .value(let existing):
        throw TOMLError(
          file: file, at: position,
          "\(header): \(shown) is a value (at \(existing.position)), not a table")
      }
    }
    guard let name = key.last else { return table }
    switch (table.slots[name], array) {
    case (nil, false):
      let child = TOMLBuilderTable(definition: .header, position: position, path: key)
      table.add(name, .table(child))
      return child
    case (nil, true):
      let child = TOMLBuilderTable(definition: .header, position: position, path: key)
      table.add(name, .tables([child], position))
      return child
    case (.table(let child), false) where child.definition == .implicit:
      child.definition = .header
      child.position = position
      return child
    case (.tables(let elements, let first), true):
      let child = TOMLBuilderTable(definition: .header, position: position, path: key)
      table.slots[name] = .tables(elements + [child], first)
      return child
    case (.table(let child), _):
      let how = child.definition == .dotted ? " by dotted keys" : ""
      throw TOMLError(
        file: file, at: position,
        "\(header): the table is already defined\(how) (at \(child.position))")
    case (.tables(_, let first), false):
      throw TOMLError(
        file: file, at: position,
        "\(header): \(Self.display(key)) is an array of tables (at \(first)); use [[...]]")
    case (.value(let existing), _):
      throw TOMLError(
        file: file, at: position,
        "\(header): \(Self.display(key)) is a value (at \(existing.position))")
    }
  }

  /// The finished table, keys in file order.
  func frozen() -> TOMLTable {
    TOMLTable(
      keys.compactMap { key -> (key: String, value: TOMLValue)? in
        switch slots[key] {
        case .value(let value)?: (key, value)
        case .table(let table)?: (key, TOMLValue(.table(table.frozen()), at: table.position))
        case .tables(let tables, let first)?:
          (
            key,
            TOMLValue(
              .array(tables.map { TOMLValue(.table($0.frozen()), at: $0.position) }), at: first)
          )
        case nil: nil
        }
      })
  }

  /// A key as TOML writes it: bare parts as they are, others quoted, every character a reader
  /// must not be shown raw (SNMWire's one walk, `VisibleTextLine`: controls, U+202E and the other
  /// invisible format characters) as TOML's own escape, so the key shown is the key the file
  /// holds: `"a\u202E"`.
  static func display(_ parts: [String]) -> String {
    parts.map { part in
      if !part.isEmpty && part.utf8.allSatisfy(TOMLParser.isBareKey) { return part }
      var quoted = "\""
      VisibleTextLine.forEachScalar(of: part) { scalar, hidden in
        switch scalar {
        case "\"": quoted += "\\\""
        case "\\": quoted += "\\\\"
        case _ where hidden:
          let wide = scalar.value > 0xFFFF
          let hex = String(scalar.value, radix: 16, uppercase: true)
          quoted += (wide ? "\\U" : "\\u")
          quoted += String(repeating: "0", count: (wide ? 8 : 4) - hex.count) + hex
        default: quoted.unicodeScalars.append(scalar)
        }
      }
      return quoted + "\""
    }.joined(separator: ".")
  }
}
