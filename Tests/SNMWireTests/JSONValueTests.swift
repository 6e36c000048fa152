import Foundation
import Testing

@testable import SNMWire

/// One JSON text and the compact form it must serialize to after parsing.
struct RoundTripCase: Sendable, CustomTestStringConvertible {
  let name: String
  let input: String
  let compact: String
  var testDescription: String { name }
}

/// One malformed JSON text and the error the parser must report.
struct MalformedCase: Sendable, CustomTestStringConvertible {
  let name: String
  let input: [UInt8]
  let offset: Int
  let message: String
  var testDescription: String { name }

  init(_ name: String, _ input: String, offset: Int, _ message: String) {
    self.init(name, Array(input.utf8), offset: offset, message)
  }

  init(_ name: String, _ input: [UInt8], offset: Int, _ message: String) {
    self.name = name
    self.input = input
    self.offset = offset
    self.message = message
  }
}

@Suite struct JSONValueTests {
  static let roundTrips: [RoundTripCase] = [
    .init(name: "PostgREST body", input: #"{"name":"Kim"}"#, compact: #"{"name":"Kim"}"#),
    .init(
      name: "whitespace dropped, key order kept", input: " { \"b\" : 1 ,\n\t\"a\" : [ 1 , 2 ] } ",
      compact: #"{"b":1,"a":[1,2]}"#),
    .init(name: "integer text kept", input: "90210", compact: "90210"),
    .init(name: "decimal text kept", input: "37.5", compact: "37.5"),
    .init(name: "trailing zero kept", input: "-12.50", compact: "-12.50"),
    .init(
      name: "beyond Int64 kept", input: "12345678901234567890", compact: "12345678901234567890"),
    .init(name: "exponent kept", input: "[1e-5,1E+10,-0]", compact: "[1e-5,1E+10,-0]"),
    .init(
      name: "numbers of more digits than a word kept",
      input: "[123456789012345678901234567890.123456789012345678e-123456,-0.0000000001]",
      compact: "[123456789012345678901234567890.123456789012345678e-123456,-0.0000000001]"),
    .init(
      name: "escapes decoded and re-escaped", input: #""a\"b\\c\/d\n\t\u00e9\ud83d\ude00""#,
      compact: #""a\"b\\c/d\n\té😀""#),
    .init(
      name: "control character escaped", input: #""\u0001\b\f\r""#, compact: #""\u0001\b\f\r""#),
    .init(name: "Korean text raw", input: #"{"이름":"김치"}"#, compact: #"{"이름":"김치"}"#),
    .init(name: "empty containers", input: "[[],{},[{}]]", compact: "[[],{},[{}]]"),
    .init(name: "duplicate keys kept", input: #"{"a":1,"a":2}"#, compact: #"{"a":1,"a":2}"#),
    .init(name: "literals", input: "[true,false,null]", compact: "[true,false,null]"),
    .init(name: "top-level string", input: #""null""#, compact: #""null""#),
    .init(
      name: "rows sharing keys",
      input: #"[{"id":1,"name":"a"},{"id":2,"name":"b"},{"name":"c","id":3}]"#,
      compact: #"[{"id":1,"name":"a"},{"id":2,"name":"b"},{"name":"c","id":3}]"#),
    .init(
      name: "nested embeds",
      input: #"[{"id":1,"owner":{"id":"x","tags":["a","b"]}},{"id":2,"owner":null}]"#,
      compact: #"[{"id":1,"owner":{"id":"x","tags":["a","b"]}},{"id":2,"owner":null}]"#),
  ]

  @Test func nestingIsMeasuredWithoutRecursion() throws {
    #expect(!JSONValue.int(1).nests(deeperThan: 0))
    #expect(try JSONValue(parsing: "[]").nests(deeperThan: 0))
    #expect(!(try JSONValue(parsing: "[]").nests(deeperThan: 1)))
    #expect(try JSONValue(parsing: #"[1, {"a": [2]}]"#).nests(deeperThan: 2))
    #expect(!(try JSONValue(parsing: #"[1, {"a": [2]}]"#).nests(deeperThan: 3)))
    let deep = String(repeating: "[", count: 2_000) + String(repeating: "]", count: 2_000)
    let value = try JSONValue(parsing: deep)
    #expect(value.nests(deeperThan: 1_999))
    #expect(!value.nests(deeperThan: 2_000))
  }

  @Test(arguments: roundTrips)
  func parsesAndSerializes(_ testCase: RoundTripCase) throws {
    let value = try JSONValue(parsing: testCase.input)
    #expect(value.serialized() == testCase.compact)
    #expect(try JSONValue(parsing: value.serialized()) == value)
    #expect(try JSONValue(parsing: Data(testCase.input.utf8)) == value)
  }

  static let malformed: [MalformedCase] = [
    .init("empty input", "", offset: 0, "expected a JSON value, found end of input"),
    .init("only spaces", "  ", offset: 2, "expected a JSON value, found end of input"),
    .init("missing colon", #"{"a" 1}"#, offset: 5, "expected ':' after an object key, found '1'"),
    .init("trailing comma in array", "[1,]", offset: 3, "expected a JSON value, found ']'"),
    .init(
      "trailing comma in object", #"{"a":1,}"#, offset: 7,
      "expected '\"' to start an object key, found '}'"),
    .init(
      "missing comma", "[1 2]", offset: 3,
      "expected ',' or ']' after an array element, found '2'"),
    .init(
      "unclosed object", #"{"a":1"#, offset: 6,
      "expected ',' or '}' after an object member, found end of input"),
    .init("unquoted key", "{a:1}", offset: 1, "expected '\"' to start an object key, found 'a'"),
    .init("leading zero", "01", offset: 0, "invalid number"),
    .init("bare minus", "-", offset: 0, "invalid number"),
    .init("dot without digits", "[1.]", offset: 1, "invalid number"),
    .init("exponent without digits", "1e", offset: 0, "invalid number"),
    .init(
      "leading zero after a long number", "[12345678901234567,01]", offset: 19, "invalid number"),
    .init(
      "a letter in a long number", "[123456789012a]", offset: 13,
      "expected ',' or ']' after an array element, found 'a'"),
    .init("plus sign", "+1", offset: 0, "expected a JSON value, found '+'"),
    .init(
      "unterminated string", #"["abc"#, offset: 5,
      "expected '\"' to close the string that starts at byte 1, found end of input"),
    .init("unknown escape", #""a\x""#, offset: 2, "invalid escape '\\x' in string"),
    .init(
      "lone high surrogate", #""\ud800""#, offset: 1,
      "invalid unicode escape: high surrogate \\uD800 without its pair"),
    .init(
      "lone low surrogate", #""\udc00x""#, offset: 1,
      "invalid unicode escape: low surrogate \\uDC00 without its pair"),
    .init(
      "short unicode escape", #""\u12""#, offset: 1, "invalid unicode escape: expected 4 hex digits"
    ),
    .init(
      "raw newline in string", "\"a\nb\"", offset: 2,
      "control character U+000A in string must be escaped"
    ),
    .init("invalid UTF-8", [0x22, 0x61, 0xff, 0x22], offset: 0, "string is not valid UTF-8"),
    .init("truncated true", "tru", offset: 3, "expected 'true', found end of input"),
    .init("misspelled null", "nul1", offset: 3, "expected 'null', found '1'"),
    .init(
      "trailing content", "{} x", offset: 3, "expected end of input after the JSON value, found 'x'"
    ),
    .init("two values", "1 2", offset: 2, "expected end of input after the JSON value, found '2'"),
    .init("single quotes", "['a']", offset: 1, "expected a JSON value, found '''"),
    .init("non-ASCII found", "[é]", offset: 1, "expected a JSON value, found 'é'"),
    .init(
      "a byte-order mark", "\u{FEFF}[1]", offset: 0,
      "expected a JSON value, found a byte-order mark (EF BB BF)"),
    .init(
      "a right-to-left override", "[\u{202E}1]", offset: 1,
      "expected a JSON value, found U+202E (E2 80 AE), an invisible character"),
    .init(
      "a C1 control", "[\u{9B}1]", offset: 1,
      "expected a JSON value, found U+009B (C2 9B), an invisible character"),
    .init(
      "a no-break space", "[\u{A0}1]", offset: 1,
      "expected a JSON value, found U+00A0 (C2 A0), an invisible character"),
    .init(
      "a zero-width space", "[1\u{200B}]", offset: 2,
      "expected ',' or ']' after an array element, found U+200B (E2 80 8B), an invisible character"),
    .init(
      "a lone combining mark", "[\u{301}]", offset: 1,
      "expected a JSON value, found U+0301 (CC 81), an invisible character"),
    .init(
      "too deep", String(repeating: "[", count: 16_385), offset: 16_384,
      "arrays and objects nested deeper than 16384 levels"),
  ]

  @Test(arguments: malformed)
  func reportsMalformedInput(_ testCase: MalformedCase) {
    #expect {
      try JSONValue(parsing: testCase.input)
    } throws: { error in
      guard let error = error as? JSONParseError else { return false }
      return error.offset == testCase.offset && error.reasonText == testCase.message
        && error.description == "invalid JSON at byte \(testCase.offset): \(testCase.message)"
    }
  }

  /// C0 and C1 controls (U+009B is a terminal's one-character CSI) are always escaped, from a
  /// tree and from the bytes alike; other non-ASCII text is kept as it is.
  @Test func controlCharactersAreAlwaysEscaped() throws {
    let raw = "a\u{9B}2J\u{1B}]0;x\u{07}é\u{80}\u{9F}\u{A0}"
    let escaped = #""a\u009b2J\u001b]0;x\u0007é\u0080\u009f\#u{A0}""#
    #expect(JSONValue.string(raw).serialized() == escaped)
    let document = try JSONDocument(
      validating: Data(
        ("[\""
          + raw.replacingOccurrences(
            of: "\u{1B}", with: "\\u001b"
          ).replacingOccurrences(of: "\u{07}", with: "\\u0007")
          + "\"]").utf8))
    let written = try document.withElements { try $0.nextText(indent: nil) }
    #expect(written.map { String(decoding: $0, as: UTF8.self) } == escaped)
  }

  /// As deep as Postgres stores a jsonb value (about 14,500 levels), in a row: checked, and
  /// written again from the bytes without recursion (the way results are printed).
  @Test func aParseHoldsNoMoreValuesThanAllowed() throws {
    // Scalars, arrays and objects each count: [1, {"a": [2]}] holds five.
    #expect(try JSONValue(parsing: #"[1, {"a": [2]}]"#, maximumValues: 5) == [1, ["a": [2]]])
    do {
      _ = try JSONValue(parsing: #"[1, {"a": [2]}]"#, maximumValues: 4)
      Issue.record("parsed")
    } catch {
      #expect(error.reason == .tooManyValues(limit: 4))
      // The fifth value, the outer array, ends at byte 15.
      #expect(error.description == "invalid JSON at byte 15: more than 4 values")
    }
  }

  @Test func deepButAllowedNestingParses() throws {
    let deep = String(repeating: "[", count: 16_382) + String(repeating: "]", count: 16_382)
    let text = #"[{"data":"# + deep + "}]"
    let document = try JSONDocument(validating: Data(text.utf8))
    #expect(document.firstRowKeys == ["data"])
    let written = try document.withElements { try $0.nextText(indent: nil) }
    #expect(written.map { String(decoding: $0, as: UTF8.self) } == #"{"data":"# + deep + "}")
    var fields: [String] = []
    try document.withElements { elements in
      _ = try elements.nextRow { _, text in fields.append(String(decoding: text, as: UTF8.self)) }
    }
    #expect(fields == [deep])
    #expect(throws: JSONParseError.self) {
      try JSONDocument(validating: Data(("[" + text + "]").utf8))
    }
  }

  @Test func prettyPrintsWithIndent() throws {
    let value = try JSONValue(parsing: #"{"name":"Kim","tags":["a",1],"empty":{},"none":[]}"#)
    #expect(
      value.prettyPrinted() == """
        {
          "name": "Kim",
          "tags": [
            "a",
            1
          ],
          "empty": {},
          "none": []
        }
        """)
    #expect(JSONValue.string("x").prettyPrinted() == #""x""#)
  }

  @Test func literalsKeepWrittenOrder() {
    let body: JSONValue = ["name": "Kim", "age": 3, "score": 37.5, "owner": nil, "ok": true]
    #expect(body.serialized() == #"{"name":"Kim","age":3,"score":37.5,"owner":null,"ok":true}"#)
  }

  @Test func accessorsReadMembersAndElements() throws {
    let rows = try JSONValue(parsing: #"[{"id":1,"name":"a","id":7}]"#)
    #expect(rows[0]?["id"] == .number(7))
    #expect(rows[0]?["name"]?.stringValue == "a")
    #expect(rows[1] == nil)
    #expect(rows["id"] == nil)
    #expect(rows[0]?.objectValue?.keys == ["id", "name", "id"])
    #expect(JSONValue.null.isNull)
    #expect(JSONValue.bool(true).typeName == "boolean")
  }

  @Test func objectsEditInPlace() {
    var row: JSONObject = ["id": 1, "name": "Kim"]
    row["age"] = 3
    row["name"] = "Lee"
    row["id"] = nil
    #expect(JSONValue.object(row).serialized() == #"{"name":"Lee","age":3}"#)
    #expect(row.map(\.key) == ["name", "age"])
  }

  @Test func rowsWithTheSameKeysShareOneKeyArray() throws {
    let text = #"[{"id":1,"long_column_name_here":2},{"id":3,"long_column_name_here":4}]"#
    let rows = try JSONValue(parsing: text)
    let first = try #require(rows[0]?.objectValue)
    let second = try #require(rows[1]?.objectValue)
    let firstBase = first.keys.withUnsafeBufferPointer { $0.baseAddress }
    let secondBase = second.keys.withUnsafeBufferPointer { $0.baseAddress }
    #expect(firstBase == secondBase)
  }

  @Test func manyRowsRoundTrip() throws {
    let rows = (0..<10_000).map { index in
      #"{"id":"\#(index)","n":\#(index).5,"tags":["a\u00e9\#(index)"],"owner":{"id":\#(index)},"x":null}"#
    }
    let text = "[" + rows.joined(separator: ",") + "]"
    let value = try JSONValue(parsing: text)
    #expect(value.arrayValue?.count == 10_000)
    #expect(value[9_999]?["tags"]?[0] == "aé9999")
    #expect(value.serialized() == text.replacingOccurrences(of: "\\u00e9", with: "é"))
  }

  @Test func numbersKeepTextAndConvert() {
    #expect(JSONNumber("12345678901234567890")?.intValue == nil)
    #expect(JSONNumber("12345678901234567890")?.doubleValue == 1.2345678901234567e19)
    #expect(JSONNumber("01") == nil)
    #expect(JSONNumber("1.5 ") == nil)
    #expect(JSONNumber("") == nil)
    #expect(JSONNumber("-3")?.intValue == -3)
    let whole: Double = 127
    #expect(JSONNumber(whole)?.text == "127.0")
    #expect(JSONNumber(127.0).text == "127.0")
    #expect(JSONNumber(Double.nan) == nil)
    #expect(JSONNumber(Double.infinity) == nil)
    #expect(JSONNumber("3.0")?.isInteger == false)
    #expect(JSONNumber(42).isInteger)
  }

  /// The word-at-a-time skip over plain bytes (`JSONByteScan.plainRun`) must stop at a byte
  /// that needs an escape wherever it sits in a word: each such byte (and a 0xC2 that leads a
  /// C1 control, and one that does not) at every offset of strings of every length up to 40
  /// gives the escape a byte-at-a-time writer gives.
  @Test func escapesAreFoundAtEveryOffsetOfAWord() {
    func reference(_ text: String) -> String {
      var out = "\""
      for scalar in text.unicodeScalars {
        switch scalar {
        case "\"": out += "\\\""
        case "\\": out += "\\\\"
        case "\n": out += "\\n"
        case "\r": out += "\\r"
        case "\t": out += "\\t"
        case "\u{08}": out += "\\b"
        case "\u{0C}": out += "\\f"
        case _ where scalar.value < 0x20 || (0x80...0x9F).contains(scalar.value):
          out += String(format: "\\u%04x", scalar.value)
        default: out.unicodeScalars.append(scalar)
        }
      }
      return out + "\""
    }
    let specials = [
      "\"", "\\", "\n", "\u{01}", "\u{1F}", "\u{85}", "\u{9B}", "é", "\u{A0}", "Ä", "😀",
    ]
    for length in 0...40 {
      for special in specials {
        for offset in 0...length {
          var text = String(repeating: "a", count: length)
          text.insert(contentsOf: special, at: text.index(text.startIndex, offsetBy: offset))
          #expect(JSONValue.string(text).serialized() == reference(text), "\(length) \(offset)")
        }
      }
    }
  }
}
