import Foundation
import SNMTestSupport
import Testing

@testable import SNMWire

/// A walk over an answer's rows writes a row whose keys are the first row's a member at a time
/// (``JSONRowWriter/copyRow(_:keys:into:indent:depth:)``) and hands any other row back to the
/// usual writer. Random arrays of rows whose keys differ from the first row's in order, count,
/// escapes, an 8- or 16-byte prefix, a byte, duplicates or a prefix of one another, with spaces
/// where PostgREST writes none, must be written as the parsed tree writes them, at every indent.
@Suite struct RowKeysDifferentialTests {
  /// Keys as their source text: short and long, sharing 7-, 8-, 15- and 16-byte starts, one a
  /// prefix of another, empty, with escapes, non-ASCII, DEL and a space.
  static let keys = [
    "a", "ab", "abc", "b", "id", "abcdefg", "abcdefgh", "abcdefgi", "abcdefghi",
    "abcdefghijklmno", "abcdefghijklmnp", "abcdefghijklmnop", "abcdefghijklmnoq",
    "abcdefghijklmnopq", "abcdefghijklmnopr", "", " ", "a b", #"\u0061"#, #"a\"b"#, #"\/"#,
    #"\\"#, "é", "\u{7F}", "~", "kkkkkkkkkkkkkkkkkkkkkkkkkkkkkk", "kkkkkkkkkkkkkkkkkkkkkkkkkkkkkx",
  ]

  /// Values as their source text.
  static let values = [
    "1", "-0.5e-3", "12345678901234567890", "true", "false", "null", #""""#, #""x""#,
    #""plain text of some length""#, #""a\"b""#, #""\u0000""#, #""\ud83d\ude00""#,
    "\"\u{85}\"", "\"\u{A0}é\"", #""\u00e9""#, "{}", "[]", #"{"a":1,"b":[2,{}]}"#, "[1,\"x\",null]",
    #"{ "a" : [ ] , "ab":{"c":"d"} }"#,
  ]

  static func pick<T>(_ items: [T], _ random: inout SeededGenerator) -> T {
    items[Int(random.next() % UInt64(items.count))]
  }

  /// Mostly nothing, sometimes a space (PostgREST's), rarely other whitespace.
  static func space(_ random: inout SeededGenerator) -> String {
    switch random.next() % 20 {
    case 0: " "
    case 1: "\n "
    case 2: "  "
    case 3: "\t"
    default: ""
    }
  }

  static func value(_ random: inout SeededGenerator) -> String {
    if random.next() % 25 == 0 {
      // Long enough to grow the text buffer in the middle of a row.
      return "\"" + String(repeating: "v", count: Int(random.next() % 9000)) + "\""
    }
    return pick(values, &random)
  }

  /// Keys of a later row: the first row's, or those changed in one way.
  static func laterKeys(_ first: [String], _ random: inout SeededGenerator) -> [String] {
    var keys = first
    switch random.next() % 10 {
    case 0: if !keys.isEmpty { keys.remove(at: Int(random.next() % UInt64(keys.count))) }
    case 1: keys.append(pick(Self.keys, &random))
    case 2: keys.reverse()
    case 3:
      if !keys.isEmpty { keys[Int(random.next() % UInt64(keys.count))] = pick(Self.keys, &random) }
    case 4: if let last = keys.last { keys.append(last) }
    default: break
    }
    return keys
  }

  static func row(_ keys: [String], _ random: inout SeededGenerator) -> String {
    var text = "{" + space(&random)
    for (index, key) in keys.enumerated() {
      if index > 0 { text += "," + space(&random) }
      text += "\"" + key + "\"" + space(&random) + ":" + space(&random) + value(&random)
      text += space(&random)
    }
    return text + "}"
  }

  static func body(_ random: inout SeededGenerator) -> String {
    let count = 1 + Int(random.next() % 4)
    var first: [String] = []
    for _ in 0..<count { first.append(pick(keys, &random)) }
    if random.next() % 8 == 0 { first.append(first[0]) }
    var rows: [String] = []
    for index in 0..<(1 + Int(random.next() % 24)) {
      rows.append(row(index == 0 ? first : laterKeys(first, &random), &random))
    }
    if random.next() % 10 == 0 { rows.insert("{}", at: Int(random.next() % UInt64(rows.count))) }
    return space(&random) + "[" + rows.joined(separator: "," + space(&random)) + "]"
  }

  @Test(arguments: 0..<8)
  func rowsWithTheFirstRowsKeysOrNotAreWrittenAsTheTreeWritesThem(_ part: Int) throws {
    var random = SeededGenerator(seed: 0x5EED_0000 + UInt64(part))
    for _ in 0..<400 {
      let input = Array(Self.body(&random).utf8)
      let document = try JSONDocument(validating: Data(input))
      let tree = JSONDocument(try JSONValue(parsing: input))
      for (indent, depth) in [(nil, 0), (2, 1), (4, 0), (1, 3)] as [(Int?, Int)] {
        let fromBytes = try document.elementTexts(indent: indent, depth: depth)
        let fromTree = try tree.elementTexts(indent: indent, depth: depth)
        guard fromBytes != fromTree else { continue }
        let shown = String(decoding: input, as: UTF8.self)
        let first = zip(fromBytes, fromTree).first { $0 != $1 }.map {
          String(decoding: $0.0, as: UTF8.self) + "\n  tree: "
            + String(decoding: $0.1, as: UTF8.self)
        }
        let place = "indent \(String(describing: indent)) depth \(depth)"
        Issue.record("\(place): \(shown)\n  bytes: \(first ?? "count")")
        return
      }
    }
  }
}
