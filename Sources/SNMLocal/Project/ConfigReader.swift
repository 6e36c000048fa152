import Foundation
import SNMTOML

/// Reads the keys of a TOML document that the caller knows, each as its type, and keeps which
/// were read: what is left is what the local project does not support, listed with its place.
///
/// ```swift
/// var reader = ConfigReader(document)
/// let port = try reader.integer(["api", "port"], in: 1...65535)
/// reader.fixed(["api", "enabled"], .boolean(true))      // the local project always has it
/// let notes = reader.unread()                          // [api.tls] enabled (5:1), ...
/// ```
/// Every typed read throws `TOMLError` at the value's place when it is of another type or out
/// of range.
struct ConfigReader {
  let document: TOMLDocument
  /// Keys read, and keys whose value is the one the local project has anyway.
  private(set) var read: Set<[String]> = []
  /// Keys whose value the local project cannot have, with what it has instead.
  private(set) var differing: [(key: [String], position: TOMLPosition, here: String)] = []
  /// `env(NAME)` values are looked up here.
  var environment: [String: String] = ProcessInfo.processInfo.environment

  init(_ document: TOMLDocument) {
    self.document = document
  }

  func value(_ path: [String]) -> TOMLValue? {
    var table = document.root
    for (offset, part) in path.enumerated() {
      guard let value = table[part] else { return nil }
      if offset == path.count - 1 { return value }
      guard let next = value.table else { return nil }
      table = next
    }
    return nil
  }

  func error(_ value: TOMLValue, _ path: [String], _ message: String) -> TOMLError {
    document.error(at: value.position, "\(Self.shown(path)) \(message)")
  }

  /// `[auth.email] enable_confirmations`: a key as the file's tables show it.
  static func shown(_ path: [String]) -> String {
    guard path.count > 1 else { return TOMLDocument.keyText(path) }
    return "[\(TOMLDocument.keyText(Array(path.dropLast())))] "
      + TOMLDocument.keyText([path[path.count - 1]])
  }

  mutating func integer(_ path: [String], in range: ClosedRange<Int>) throws(TOMLError) -> Int? {
    guard let (number, value) = try typed(path, "an integer", \.integer) else { return nil }
    guard range.contains(number) else {
      throw error(
        value, path,
        range.upperBound == Int.max
          ? "must be at least \(range.lowerBound), not \(number)"
          : "must be between \(range.lowerBound) and \(range.upperBound), not \(number)")
    }
    return number
  }

  mutating func boolean(_ path: [String]) throws(TOMLError) -> Bool? {
    try typed(path, "true or false", \.boolean)?.found
  }

  /// A string, with `env(NAME)` replaced by the variable's value, as the Supabase CLI does.
  mutating func string(_ path: [String]) throws(TOMLError) -> String? {
    guard let (text, value) = try typed(path, "a string", \.string) else { return nil }
    return try substitute(text, value, path)
  }

  mutating func strings(_ path: [String]) throws(TOMLError) -> [String]? {
    guard let (items, _) = try typed(path, "an array of strings", \.array) else { return nil }
    var texts: [String] = []
    for item in items {
      guard let text = item.string else {
        throw error(item, path, "must hold only strings, not \(item.typeName)")
      }
      texts.append(try substitute(text, item, path))
    }
    return texts
  }

  /// The key's value as `extract` takes it, with the value itself (for a later error's place),
  /// marked read; nil when the key is absent.
  /// - Throws: `TOMLError` "must be \(kind), not ..." when the value is of another type.
  private mutating func typed<Found>(
    _ path: [String], _ kind: String, _ extract: (TOMLValue) -> Found?
  ) throws(TOMLError) -> (found: Found, value: TOMLValue)? {
    guard let value = value(path) else { return nil }
    read.insert(path)
    guard let found = extract(value) else {
      throw error(value, path, "must be \(kind), not \(value.typeName)")
    }
    return (found, value)
  }

  /// A table's keys and values (`[auth.sms.test_otp]`, `[storage.buckets]`), all read.
  mutating func table(_ path: [String]) throws(TOMLError) -> TOMLTable? {
    guard let value = value(path) else { return nil }
    guard let table = value.table else {
      read.insert(path)
      throw error(value, path, "must be a table, not \(value.typeName)")
    }
    return table
  }

  /// Marks `path` read when it holds `expected` (what the local project does anyway); any other
  /// value is noted as differing, with `here` saying what the project does.
  mutating func fixed(_ path: [String], _ expected: TOMLValue.Kind, here: String) {
    guard let value = value(path) else { return }
    read.insert(path)
    if value.kind != expected { differing.append((path, value.position, here)) }
  }

  mutating func markRead(_ path: [String]) {
    read.insert(path)
  }

  private func substitute(_ text: String, _ value: TOMLValue, _ path: [String])
    throws(TOMLError) -> String
  {
    guard text.hasPrefix("env("), text.hasSuffix(")") else { return text }
    let name = String(text.dropFirst(4).dropLast())
    guard let found = environment[name] else {
      throw error(value, path, "names the environment variable \(name), which is not set")
    }
    return found
  }

  /// The keys not read, each with its place: whole tables once when none of their keys was
  /// read. A table that says `enabled = false` (a feature off that the local project does not
  /// have either), or holds only such tables, is left out: nothing it asks for is missing.
  func unread() -> [(key: [String], position: TOMLPosition, isTable: Bool)] {
    var result: [(key: [String], position: TOMLPosition, isTable: Bool)] = []
    collect(document.root, path: [], into: &result)
    return result
  }

  private func collect(
    _ table: TOMLTable, path: [String],
    into result: inout [(key: [String], position: TOMLPosition, isTable: Bool)]
  ) {
    for (key, value) in table.entries {
      let child = path + [key]
      if read.contains(child) { continue }
      guard let inner = value.table else {
        result.append((child, value.position, false))
        continue
      }
      if !touches(child) {
        if Self.isOff(inner) { continue }
        result.append((child, value.position, true))
        continue
      }
      collect(inner, path: child, into: &result)
    }
  }

  /// A table that says `enabled = false`, or holds only such tables (`[auth.external]` with
  /// every provider off): it asks for nothing.
  static func isOff(_ table: TOMLTable) -> Bool {
    if table["enabled"]?.boolean == false { return true }
    return !table.isEmpty
      && table.entries.allSatisfy { entry in entry.value.table.map(isOff) ?? false }
  }

  /// Whether any key under `path` was read.
  private func touches(_ path: [String]) -> Bool {
    read.contains { $0.count > path.count && Array($0.prefix(path.count)) == path }
  }
}
