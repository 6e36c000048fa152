import Foundation
import Testing

@testable import SNMWire

/// The row writers that write straight from the checked bytes (``JSONRowWriter`` for json and
/// ndjson, ``CSVRowWriter`` for csv) read a string eight bytes at a time and stop at a quote, a
/// backslash, a control or a C1 lead: each such byte at every place of a key or a value of 0 to
/// 17 bytes, with the array's end at every place of a word, must write what the parsed tree
/// writes.
@Suite struct RowWriterEdgeTests {
  /// What may sit inside a JSON string the check on arrival lets by, as its source text:
  /// escapes of every kind (NUL, a surrogate pair, C1, a carriage return), raw UTF-8 (a C1
  /// control, a no-break space, é, an emoji), DEL and bytes csv quotes.
  static let specials = [
    #"\""#, #"\\"#, #"\/"#, #"\n"#, #"\r"#, #"\u0000"#, #"\ud83d\ude00"#, #"\u0085"#,
    "\u{85}", "\u{A0}", "é", "🐶", ",", "\u{7F}",
  ]

  /// Arrays of rows whose key and value hold `special` at each place of a text of `length`
  /// bytes, after 0 to 7 spaces (so that the array's last bytes fall at every place of a word).
  static func inputs(length: Int, special: String) -> [[UInt8]] {
    var rows: [String] = []
    for place in 0...length {
      let text =
        String(repeating: "k", count: place) + special
        + String(repeating: "v", count: max(0, length - place))
      rows.append(#"{"\#(text)":"\#(text)","n":\#(place),"e":"\#(special)"}"#)
    }
    let body = "[" + rows.joined(separator: ",") + "]"
    return (0..<8).map { Array((String(repeating: " ", count: $0) + body).utf8) }
  }

  @Test(arguments: 0...17)
  func jsonAndNdjsonFromTheBytesAreTheTreesAtEveryPlace(_ length: Int) throws {
    for special in Self.specials {
      for input in Self.inputs(length: length, special: special) {
        let document = try JSONDocument(validating: Data(input))
        let tree = JSONDocument(try JSONValue(parsing: input))
        for (indent, depth) in [(nil, 0), (2, 1)] as [(Int?, Int)] {
          let fromBytes = try document.elementTexts(indent: indent, depth: depth)
          let fromTree = try tree.elementTexts(indent: indent, depth: depth)
          let shown = String(decoding: input, as: UTF8.self)
          #expect(fromBytes == fromTree, "\(special) \(length) \(shown)")
        }
      }
    }
  }

  @Test(arguments: 0...17)
  func csvFromTheBytesIsTheTreesAtEveryPlace(_ length: Int) {
    for special in Self.specials {
      for input in Self.inputs(length: length, special: special) {
        CSVRecordTests.expectSame(input, "\(special) \(length)")
      }
    }
  }
}
