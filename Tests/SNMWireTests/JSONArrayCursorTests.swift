import Foundation
import Testing

@testable import SNMWire

/// A JSON text given to the cursor and to the whole parser, which must agree.
struct CursorCase: Sendable, CustomTestStringConvertible {
  let name: String
  let input: [UInt8]
  var testDescription: String { name }

  init(_ name: String, _ input: String) {
    self.name = name
    self.input = Array(input.utf8)
  }

  init(_ name: String, bytes: [UInt8]) {
    self.name = name
    self.input = bytes
  }
}

/// Walks `input` with a cursor: the elements it gave, and the error it stopped with.
private func walk(_ input: [UInt8]) -> (elements: [JSONValue], error: JSONParseError?) {
  var elements: [JSONValue] = []
  do {
    try JSONArrayCursor.withCursor(over: Data(input)) { cursor in
      while let element = try cursor.next() { elements.append(element) }
    }
    return (elements, nil)
  } catch {
    return (elements, error as? JSONParseError)
  }
}

@Suite struct JSONArrayCursorTests {
  static let arrays: [CursorCase] = [
    .init("empty array", "[]"),
    .init("empty array with spaces", " \n[ \t ]\r\n "),
    .init("one element", "[1]"),
    .init("rows", #"[{"id":1,"name":"Kim"},{"id":2,"name":"Lee"}]"#),
    .init("whitespace everywhere", " [ {\"a\" : [ 1 , 2 ] } ,\n\t3 , \"x\" ] \n"),
    .init("nesting", #"[[[]],[[1,[2,[3]]]],{"a":{"b":{"c":[{}]}}}]"#),
    .init("brackets in strings", #"["]", "[", "}{", "],[", {"k]":"v["}]"#),
    .init("escapes in strings", #"["a\"]\\", "\\", "\"", "\u005d", "\ud83d\ude00", "\n"]"#),
    .init("scalars", "[true,false,null,-0.5e3,\"\"]"),
    .init("Korean and emoji", #"[{"이름":"김치 🐶"},{"이름":"밥"}]"#),
    .init("rows with different keys", #"[{"a":1},{"b":2,"a":3},{}]"#),
    .init(
      "jsonb's spaces",
      #"[{"t":{"vet": {"name": "Seoul Vet", "visits": [2023, 2024]}}}, {"t":{ }}]"#),
    .init("empty containers with space inside", "[{ }, [ \n ], {\"a\":[ ],\"b\":{\t}}]"),
    .init("escaped keys and C1 controls", #"[{"a\"b":"\u0085x\/","\u00e9":"\#u{85}"},"\t"]"#),
    .init("scalars after rows", #"[{"a":1}, 2, "three", null, [4]]"#),
    .init(
      "0xC2 leading no C1 control", "[{\"k£\":\"©¥ \u{A0}x\",\"£\":[\"¢\"]}, \"£\", \"\u{A0}\"]"),
    .init(
      "scalars longer than a word, and in the last eight bytes",
      "[123456789012345678901234567890,-1.25e-300,{\"a\":true,\"b\":false,\"c\":null},1e5]"),
    .init(
      "strings across words and in the last eight bytes",
      "[\"abcdefghijklmnopq\",\"abcdefgh\",{\"abcdefghijklmnopqrstuvw\":\"ab\"},\"x\"]"),
    .init(
      "deeper than a word of levels",
      "[" + String(repeating: "{\"k\":[", count: 40) + "1" + String(repeating: "]}", count: 40)
        + "]"),
    .init(
      "a row longer than the text buffer",
      "[{\"long\":\"" + String(repeating: "abcdefgh", count: 1200) + "\",\"n\":1},{\"s\":\"x\"}]"),
    // A key, its `:`, its value and the next key are written in one step while they follow
    // each other: escapes, spaces and containers in the middle of such a run.
    .init(
      "escapes and C1 controls in the middle of a row's members",
      #"[{"a":1,"b":"x\ny","c":"\u0085","d":2,"e\"":"\#u{85}z","f":true,"g":"plain"}]"#),
    .init(
      "spaces, tabs and line ends around separators",
      "[{\"a\" :1 ,\"b\":\n\"x\",\t\"c\": [1, \"y\" ,2] , \"d\":{\"e\" : \"f\"},\"g\":  null}]"),
    .init(
      "members after nested values",
      #"[{"t":{"a":[1,2],"b":{}},"u":"v","w":[{"x":"y"},3],"z":-1e-3}, {"t":[],"u":"","w":[]}]"#),
    // Rows after the first with its keys, byte for byte, are written a member at a time from
    // the first row's keys (JSONRowWriter.copyRow): rows it takes and rows it hands back.
    .init(
      "rows with the first row's keys, as PostgREST writes them",
      #"[{"id":1,"name":"a","t":{"vet": {"n": "S V", "v": [2023, 2024]}},"x":null}, "#
        + "\n "
        + #"{"id":2,"name":"b\"c","t":[],"x":true}, "#
        + #"{"id":-3.5e2,"name":"\u0085","t":{},"x":"\#u{85}"},"#
        + #"{"id":4,"name":"£¥ \#u{A0}한국 😀","t":"s","x":12345678901234567890}]"#),
    .init(
      "later rows with other keys, spaces or fewer members",
      #"[{"ab":1,"cd":"x"},{"ab":2,"cde":"y"},{"a":3,"cd":"z"},{"ab":4},{"ab":5,"cd":"w","e":6},"#
        + #"{"ab" :7,"cd":"v"},{ "ab":8,"cd":"u"},{"ab":9 ,"cd":"t"},{"ab":  10,"cd":"s" },"#
        + #"{"cd":"r","ab":11},{"ab":12, "cd":"q"},{"ab":13,"cd":"p"}]"#),
    .init(
      "keys of 7, 8, 15, 16 and 17 bytes",
      "["
        + (0..<3).map { row in
          "{"
            + [7, 8, 15, 16, 17, 40].map { length in
              "\"" + String(repeating: "k", count: length - 1) + "\(length % 10)\":\(row)"
            }.joined(separator: ",") + "}"
        }.joined(separator: ",") + "]"),
    .init(
      "keys of the first row's length that differ in one byte",
      #"[{"kkkkkkkkkkkkkkkkkkkkkk":1,"abcdefg":2},{"kkkkkkkkkkkkkkkkkkkkkk":3,"abcdefh":4},"#
        + #"{"kkkkkkkkkkkxkkkkkkkkkk":5,"abcdefg":6},{"kkkkkkkkkkkkkkkkkkkkkx":7,"xbcdefg":8},"#
        + #"{"kkkkkkkkkkkkkkkkkkkkkkk":9,"abcdefg":10},{"kkkkkkkkkkkkkkkkkkkkkk":11,"abcdefg":12}]"#
    ),
    .init(
      "escaped and non-ASCII keys in the first row",
      #"[{"\u0061":1,"b":2},{"a":3,"b":4},{"\u0061":5,"b":6},{"이":7},{"이":8}]"#),
    .init(
      "more rows handed back than the quick way tries, then rows it would take",
      "[" + (0..<20).map { "{\"a\" : \($0)}" }.joined(separator: ",") + ",{\"a\":1},{\"a\":2}]"),
    .init(
      "a row's last values in the last bytes",
      #"[{"a":"x","b":1},{"a":"y","b":2},{"a":"z","b":true}]"#),
    .init(
      "rows longer than the text buffer with the first row's keys",
      "["
        + (0..<40).map {
          "{\"long\":\"" + String(repeating: "abcdefgh", count: 600 + $0) + "\",\"n\":\($0)}"
        }.joined(separator: ",") + "]"),
    .init(
      "many short members in a row longer than the text buffer",
      "[{"
        + (0..<700).map { "\"k\($0)\":" + ($0 % 3 == 0 ? "\"s\"" : "\($0)") }
        .joined(separator: ",") + "}]"),
  ]

  @Test(arguments: arrays)
  func givesTheElementsTheParserBuilds(_ testCase: CursorCase) throws {
    let whole = try JSONValue(parsing: testCase.input)
    let walked = walk(testCase.input)
    #expect(walked.error == nil)
    #expect(walked.elements == whole.arrayValue)
  }

  @Test(arguments: arrays)
  func writesEachElementAsItsParsedFormWouldBe(_ testCase: CursorCase) throws {
    let document = try JSONDocument(validating: Data(testCase.input))
    let tree = JSONDocument(try JSONValue(parsing: testCase.input))
    for (indent, depth) in [(nil, 0), (2, 1)] as [(Int?, Int)] {
      let fromBytes = try document.elementTexts(indent: indent, depth: depth)
      let fromTree = try tree.elementTexts(indent: indent, depth: depth)
      #expect(fromBytes == fromTree)
      #expect(fromBytes.count == tree.shape.count)
    }
    #expect(!document.isParsed)
  }

  @Test(arguments: arrays)
  func appendsEachElementAfterWhatTheOutputHolds(_ testCase: CursorCase) throws {
    let document = try JSONDocument(validating: Data(testCase.input))
    let value = try JSONValue(parsing: testCase.input)
    for indent in [nil, 2] as [Int?] {
      var output = Array("held".utf8)
      var expected = output
      try document.withElements { elements in
        while try elements.appendNextText(to: &output, indent: indent, depth: 1) {
          output.append(0x0A)
        }
      }
      for element in value.arrayValue ?? [] {
        expected +=
          indent == nil
          ? element.serializedBytes() : element.prettyPrintedBytes(indent: 2, depth: 1)
        expected.append(0x0A)
      }
      #expect(output == expected)
    }
  }

  @Test func rowsHandOverTheirValuesAsText() throws {
    let body =
      #"[ {"a": null, "b" : true, "c": -1.50e2, "d": "x,\"y\"\u00e9", "e": "", "f": {"g": [1, "\/"]}},"#
      + #"{"a":"plain","b":false,"c":0,"d":"김치","e":"]","f":[]} ]"#
    let expected: [[String]] = [
      [
        "null:", "bool:true", "number:-1.50e2", "string:x,\"y\"é", "string:",
        #"nested:{"g":[1,"/"]}"#,
      ],
      ["string:plain", "bool:false", "number:0", "string:김치", "string:]", "nested:[]"],
    ]
    for document in [
      try JSONDocument(validating: Data(body.utf8)), JSONDocument(try JSONValue(parsing: body)),
    ] {
      var rows: [[String]] = []
      try document.withElements { elements in
        while true {
          var fields: [String] = []
          let more = try elements.nextRow { kind, text in
            fields.append("\(kind):" + String(decoding: text, as: UTF8.self))
          }
          guard more else { break }
          rows.append(fields)
        }
      }
      #expect(rows == expected)
    }
  }

  @Test func rowsWithTheSameKeysShareOneKeyArray() throws {
    var keys: [[String]] = []
    try JSONArrayCursor.withCursor(over: Data(#"[{"id":1,"n":"a"},{"id":2,"n":"b"}]"#.utf8)) {
      while let row = try $0.next() { keys.append(row.objectValue?.keys ?? []) }
    }
    #expect(keys == [["id", "n"], ["id", "n"]])
    keys[0].withUnsafeBufferPointer { first in
      keys[1].withUnsafeBufferPointer { second in
        #expect(first.baseAddress == second.baseAddress)
      }
    }
  }

  @Test func stopsAfterTheLastElement() throws {
    let seen = try JSONArrayCursor.withCursor(over: Data("[1, 2]".utf8)) { cursor in
      [try cursor.next(), try cursor.next(), try cursor.next(), try cursor.next()]
    }
    #expect(seen == [1, 2, nil, nil])
  }

  static let malformed: [CursorCase] = [
    .init("empty body", ""),
    .init("only spaces", "   "),
    .init("unclosed", "["),
    .init("truncated after an element", "[1,2"),
    .init("truncated after a comma", "[1,2,"),
    .init("truncated inside a row", #"[{"id":1},{"id":2,"na"#),
    .init("truncated inside a string", #"[{"id":1},{"name":"Ki"#),
    .init("truncated inside an escape", #"["a\u00"#),
    .init("missing comma", "[1 2]"),
    .init("trailing comma", "[1,]"),
    .init("leading comma", "[,1]"),
    .init("bracket in a string never closed", #"["]"#),
    .init("wrong closer", "[1}"),
    .init("bad element after good ones", #"[{"a":1},{"a":tru}]"#),
    .init("bad number", "[1,01]"),
    .init("raw control character", "[\"a\u{1}\"]"),
    .init("trailing content", "[1] x"),
    .init("two arrays", "[1][2]"),
    .init(
      "invalid UTF-8 in an element", bytes: Array("[\"ok\",\"".utf8) + [0xC3, 0x28] + [0x22, 0x5D]),
    .init(
      "too deep", String(repeating: "[", count: 16_385) + String(repeating: "]", count: 16_385)),
    .init("object, malformed", #"{"a" 1}"#),
  ]

  @Test(arguments: malformed)
  func failsWithTheErrorTheParserReports(_ testCase: CursorCase) {
    var parserError: JSONParseError?
    do {
      _ = try JSONValue(parsing: testCase.input)
    } catch {
      parserError = error
    }
    let walked = walk(testCase.input)
    #expect(parserError != nil)
    #expect(walked.error == parserError)
  }

  @Test func endsAfterAFault() throws {
    let seen = try JSONArrayCursor.withCursor(over: Data("[1,x,2]".utf8)) { cursor in
      let first = try cursor.next()
      let fault = (try? cursor.next()) == nil
      return (first, fault, try cursor.next())
    }
    #expect(seen.0 == 1 && seen.1 && seen.2 == nil)
  }

  @Test func givesTheElementsBeforeTheFault() {
    let walked = walk(Array(#"[{"id":1},{"id":2},{"id":3,"#.utf8))
    #expect(walked.elements == [["id": 1], ["id": 2]])
    #expect(walked.error?.description.hasPrefix("invalid JSON at byte 27: expected '\"'") == true)
  }

  @Test func deepButAllowedNestingWalks() throws {
    let inner = String(repeating: "[", count: 511) + String(repeating: "]", count: 511)
    let walked = walk(Array("[\(inner),\(inner)]".utf8))
    #expect(walked.error == nil)
    #expect(walked.elements.count == 2)
  }

  @Test func refusesAValueThatIsNotAnArray() {
    let walked = walk(Array(#" {"a": 1}"#.utf8))
    #expect(walked.elements.isEmpty)
    #expect(
      walked.error?.description
        == "invalid JSON at byte 1: expected '[' to start an array, found '{'")
  }

  /// A walk stopped after any element and taken up again from its position by a new one reads
  /// what one walk reads, the end included (over growing starts of a body: ArrivingRowsTests).
  @Test(arguments: arrays)
  func aWalkGoesOnFromItsPosition(_ testCase: CursorCase) throws {
    let whole = try #require(try JSONValue(parsing: testCase.input).arrayValue)
    for stop in 0...whole.count {
      let position = try testCase.input.withUnsafeBufferPointer { bytes in
        try JSONElements.withElements(of: bytes, from: .start) { elements in
          for _ in 0..<stop { _ = try elements.next() }
          return elements.position
        }
      }
      let from = try #require(position)
      #expect(from.count == stop)
      let rest = try testCase.input.withUnsafeBufferPointer { bytes in
        try JSONElements.withElements(of: bytes, from: from) { elements in
          var rest: [JSONValue] = []
          while let element = try elements.next() { rest.append(element) }
          return rest
        }
      }
      #expect(Array(whole[..<stop]) + rest == whole, "stopped after \(stop)")
    }
  }
}

extension JSONDocument {
  /// Every element's text as ``JSONElements/nextText(indent:depth:)`` writes it, in order (for
  /// comparing the bytes' writer with the tree's).
  func elementTexts(indent: Int?, depth: Int) throws -> [[UInt8]] {
    try withElements { elements in
      var texts: [[UInt8]] = []
      while let text = try elements.nextText(indent: indent, depth: depth) {
        texts.append(text)
      }
      return texts
    }
  }
}
