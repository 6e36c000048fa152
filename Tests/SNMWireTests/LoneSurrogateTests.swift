import Foundation
import Testing

@testable import SNMWire

/// A surrogate's `\u` escape without its pair: RFC 8259's grammar allows it, a Postgres `json`
/// value keeps it as sent and PostgREST answers it so. An answer holding one is taken: json and
/// ndjson write the escape as it came, the parsed value (table, csv) holds U+FFFD for it. Request
/// bodies the local gateway parses (``JSONValue/init(parsing:)-(String)``) still refuse it, as
/// jsonb does; raw surrogate bytes and raw control characters are refused everywhere.
@Suite struct LoneSurrogateTests {
  static let row =
    #"{"a":"x\ud800y","b":"\uDC00","c":"\ud83d\ude00","d":"\ud800\u0041\n","e":"\udbff\ud800"}"#
  static let body = Data(("[" + row + "," + row + ", " + row + "]").utf8)
  /// The parser's malformed cases but its lone surrogates: what an answer's check refuses too.
  static let refusedInAnswers = JSONValueTests.malformed.filter {
    !$0.message.contains("without its pair")
  }

  @Test func anAnswerWithLoneSurrogatesIsTakenAndTheyAreReadAsReplacement() throws {
    let document = try JSONDocument(validating: Self.body)
    #expect(!document.isParsed)
    let expected: JSONValue = [
      "a": "x\u{FFFD}y", "b": "\u{FFFD}", "c": "😀", "d": "\u{FFFD}A\n", "e": "\u{FFFD}\u{FFFD}",
    ]
    #expect(document.value == [expected, expected, expected])
    #expect(throws: JSONParseError.self) { try JSONValue(parsing: Self.body) }
  }

  @Test func jsonRowsKeepTheEscapeAsItCame() throws {
    let document = try JSONDocument(validating: Self.body)
    let compact =
      #"{"a":"x\ud800y","b":"\uDC00","c":"😀","d":"\ud800A\n","e":"\udbff\ud800"}"#
    let indented = """
      {
          "a": "x\\ud800y",
          "b": "\\uDC00",
          "c": "😀",
          "d": "\\ud800A\\n",
          "e": "\\udbff\\ud800"
        }
      """
    for (indent, depth, expected) in [(nil, 0, compact), (2, 1, indented)] as [(Int?, Int, String)]
    {
      let texts = try document.elementTexts(indent: indent, depth: depth).map {
        String(decoding: $0, as: UTF8.self)
      }
      #expect(texts == [expected, expected, expected])
    }
  }

  @Test func csvShowsReplacement() {
    let records = CSVRecordTests.records(Array(Self.body), oneValueAtATime: false)
    #expect(records.error == nil)
    let record = "x\u{FFFD}y,\u{FFFD},😀,\"\u{FFFD}A\n\",\u{FFFD}\u{FFFD}\n"
    #expect(String(decoding: records.text, as: UTF8.self) == record + record + record)
    CSVRecordTests.expectSame(Array(Self.body), tree: false)
  }

  @Test(arguments: [
    [0x22, 0xED, 0xA0, 0x80, 0x22], [0x22, 0x01, 0x22], Array(#""\ud80""#.utf8),
    Array(#""\ud800\u12""#.utf8), Array(#""\x""#.utf8),
  ])
  func rawSurrogatesControlsAndBadEscapesAreStillRefused(_ string: [UInt8]) {
    let body = Data(Array(#"[{"a":"\ud800"},{"a":"#.utf8) + string + Array("}]".utf8))
    #expect(throws: JSONParseError.self) { try JSONDocument(validating: body) }
  }
}
