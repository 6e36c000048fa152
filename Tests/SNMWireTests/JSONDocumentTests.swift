import Foundation
import SNMTestSupport
import Testing

@testable import SNMWire

/// A body and the shape a document must note for it without parsing it.
struct ShapeCase: Sendable, CustomTestStringConvertible {
  let name: String
  let input: String
  let shape: JSONShape
  var testDescription: String { name }
}

/// How writing `bytes` straight from them differs from writing their parsed value (compact and
/// indented at two depths); nil when it does not.
/// A text with a lone surrogate's escape (read as U+FFFD, written again as it came) must give
/// text that reads as the same value.
func rewriteProblem(_ bytes: [UInt8]) -> String? {
  guard let value = try? JSONValue(parsingAnswer: Data(bytes)) else { return "not JSON" }
  let lone = (try? JSONValue(parsing: bytes)) == nil
  for (indent, depth) in [(nil, 0), (2, 0), (2, 1), (4, 3)] as [(Int?, Int)] {
    let rewritten = bytes.withUnsafeBufferPointer { buffer -> [UInt8]? in
      var parser = JSONParser(buffer, takesLoneSurrogates: true)
      var writer = JSONWriter(indent: indent)
      guard (try? parser.rewriteValue(into: &writer, depth: depth)) != nil else { return nil }
      parser.skipWhitespace()
      return parser.offset == buffer.count ? writer.output : nil
    }
    let expected =
      indent.map { value.prettyPrintedBytes(indent: $0, depth: depth) } ?? value.serializedBytes()
    let same =
      lone
      ? rewritten.flatMap { try? JSONValue(parsingAnswer: Data($0)) } == value
      : rewritten == expected
    if !same {
      return "\(String(decoding: bytes, as: UTF8.self)) indent \(String(describing: indent))"
    }
  }
  return nil
}

/// Whether the validator accepts `bytes`, and whether the parser does.
private func verdicts(_ bytes: [UInt8]) -> (validator: Bool, parser: Bool) {
  let validator = bytes.withUnsafeBufferPointer { buffer in
    var validator = JSONValidator(buffer)
    return validator.validate() != nil
  }
  return (validator, (try? JSONValue(parsingAnswer: Data(bytes))) != nil)
}

@Suite struct JSONDocumentTests {
  static let shapes: [ShapeCase] = [
    .init(
      name: "PostgREST rows", input: #"[{"id":1,"name":"a"},{"id":2,"name":null}]"#,
      shape: JSONShape(kind: .array, count: 2, uniformObjects: true)),
    .init(
      name: "nested values do not count", input: #"[{"a":[1,2,{"b":3}]},{"a":{"c":[]}}]"#,
      shape: JSONShape(kind: .array, count: 2, uniformObjects: true)),
    .init(
      name: "keys in another order", input: #"[{"a":1,"b":2},{"b":2,"a":1}]"#,
      shape: JSONShape(kind: .array, count: 2, uniformObjects: false)),
    .init(
      name: "a key missing", input: #"[{"a":1,"b":2},{"a":1}]"#,
      shape: JSONShape(kind: .array, count: 2, uniformObjects: false)),
    .init(
      name: "a key more", input: #"[{"a":1},{"a":1,"b":2}]"#,
      shape: JSONShape(kind: .array, count: 2, uniformObjects: false)),
    .init(
      name: "same key written with an escape", input: #"[{"a":1},{"\u0061":2}]"#,
      shape: JSONShape(kind: .array, count: 2, uniformObjects: false)),
    // A later row's key is first compared with the first row's bytes to its closing quote.
    .init(
      name: "a later key longer, with the first's start", input: #"[{"ab":1},{"abc":2}]"#,
      shape: JSONShape(kind: .array, count: 2, uniformObjects: false)),
    .init(
      name: "a later key shorter", input: #"[{"abc":1},{"ab":2}]"#,
      shape: JSONShape(kind: .array, count: 2, uniformObjects: false)),
    .init(
      name: "a later key escaping its quote where the first's closes",
      input: #"[{"a\\":1},{"a\"":2}]"#,
      shape: JSONShape(kind: .array, count: 2, uniformObjects: false)),
    .init(
      name: "the same escaped key", input: #"[{"a\\":1},{"a\\":2},{"a\\" : 3}]"#,
      shape: JSONShape(kind: .array, count: 3, uniformObjects: true)),
    .init(
      name: "nine-byte keys differing in the last byte",
      input: #"[{"abcdefghi":1,"é":2},{"abcdefghX":1,"é":2}]"#,
      shape: JSONShape(kind: .array, count: 2, uniformObjects: false)),
    .init(
      name: "nine-byte keys the same", input: #"[{"abcdefghi":1,"é":2},{"abcdefghi":3,"é":4}]"#,
      shape: JSONShape(kind: .array, count: 2, uniformObjects: true)),
    // With sixteen bytes after its quote a later row's key is compared as two words with the
    // first row's key and quote (a key of more than fifteen bytes byte for byte).
    .init(
      name: "keys of 7, 8, 15 and 16 bytes the same",
      input: #"[{"abcdefg":1,"abcdefgh":2,"abcdefghijklmno":3,"abcdefghijklmnop":4},"#
        + #"{"abcdefg":1,"abcdefgh":2,"abcdefghijklmno":3,"abcdefghijklmnop":4},"#
        + #"{"abcdefg":1,"abcdefgh":2,"abcdefghijklmno":3,"abcdefghijklmnop":4}]"#,
      shape: JSONShape(kind: .array, count: 3, uniformObjects: true)),
    .init(
      name: "fifteen-byte keys differing in the last byte",
      input: #"[{"abcdefghijklmno":1,"x":2},{"abcdefghijklmnX":1,"x":2},{"abcdefghijklmno":1}]"#,
      shape: JSONShape(kind: .array, count: 3, uniformObjects: false)),
    .init(
      name: "seven-byte keys differing in the last byte",
      input: #"[{"abcdefg":1,"x":2},{"abcdefX":1,"x":2},{"abcdefg":1,"x":2},{"abcdefg":1}]"#,
      shape: JSONShape(kind: .array, count: 4, uniformObjects: false)),
    .init(
      name: "a later eight-byte key one byte longer, followed by more rows",
      input: #"[{"abcdefgh":1},{"abcdefghi":2},{"abcdefgh":3},{"abcdefgh":4}]"#,
      shape: JSONShape(kind: .array, count: 4, uniformObjects: false)),
    .init(
      name: "a later nine-byte key one byte shorter, followed by more rows",
      input: #"[{"abcdefghi":1},{"abcdefgh":2},{"abcdefghi":3},{"abcdefghi":4}]"#,
      shape: JSONShape(kind: .array, count: 4, uniformObjects: false)),
    .init(
      name: "a scalar among rows", input: #"[{"a":1},2]"#,
      shape: JSONShape(kind: .array, count: 2, uniformObjects: false)),
    .init(
      name: "an array among rows", input: #"[{"a":1},[]]"#,
      shape: JSONShape(kind: .array, count: 2, uniformObjects: false)),
    .init(
      name: "empty objects", input: "[{},{}]",
      shape: JSONShape(kind: .array, count: 2, uniformObjects: true)),
    .init(name: "empty array", input: " [ ] ", shape: JSONShape(kind: .array)),
    .init(
      name: "scalars", input: "[1,\"two\",null]", shape: JSONShape(kind: .array, count: 3)),
    .init(name: "object", input: #"{"a":[1,2]}"#, shape: JSONShape(kind: .object)),
    .init(name: "string", input: #""[1,2]""#, shape: JSONShape(kind: .string)),
    .init(name: "number", input: "-1.5", shape: JSONShape(kind: .number)),
    .init(name: "null", input: "null", shape: JSONShape(kind: .null)),
    .init(name: "boolean", input: "false", shape: JSONShape(kind: .bool)),
  ]

  @Test(arguments: shapes)
  func notesTheShapeWithoutParsing(_ testCase: ShapeCase) throws {
    let document = try JSONDocument(validating: Data(testCase.input.utf8))
    #expect(document.shape == testCase.shape)
    #expect(!document.isParsed)
    // From a tree keys are compared decoded, so `"a"` and `"\u0061"` match there: the bytes'
    // verdict may only be more cautious.
    let tree = JSONShape(of: try JSONValue(parsing: testCase.input))
    #expect(tree.kind == testCase.shape.kind && tree.count == testCase.shape.count)
    #expect(tree.uniformObjects || !testCase.shape.uniformObjects)
  }

  @Test func parsesOnceOnFirstUse() throws {
    let body = Data(#"[{"id":1,"name":"Kim"},{"id":2,"name":"Lee"}]"#.utf8)
    let document = try JSONDocument(validating: body)
    #expect(document.firstRowKeys == ["id", "name"])
    var names: [String] = []
    try document.withElements { elements in
      while let row = try elements.next() { names.append(row["name"]?.stringValue ?? "") }
    }
    #expect(names == ["Kim", "Lee"])
    #expect(!document.isParsed, "reading the keys and walking the rows must not build the tree")
    #expect(document.value == (try JSONValue(parsing: body)))
    #expect(document.isParsed)
    #expect(document.value[1]?["name"] == "Lee")
    // Once parsed, the walk reads the tree.
    var count = 0
    try document.withElements { elements in
      while try elements.next() != nil { count += 1 }
    }
    #expect(count == 2)
  }

  @Test func aDocumentFromAValueIsParsed() throws {
    let document = JSONDocument(["a": 1])
    #expect(document.isParsed)
    #expect(document.shape == JSONShape(kind: .object))
    #expect(document.firstRowKeys == ["a"])
    #expect(throws: JSONParseError.self) { try document.withElements { try $0.next() } }
  }

  /// (A lone surrogate's escape the parser refuses is taken in an answer: LoneSurrogateTests.)
  @Test(arguments: LoneSurrogateTests.refusedInAnswers)
  func refusesWhatTheParserRefusesWithItsError(_ testCase: MalformedCase) {
    #expect {
      _ = try JSONDocument(validating: Data(testCase.input))
    } throws: { error in
      guard let error = error as? JSONParseError else { return false }
      return error.offset == testCase.offset && error.reasonText == testCase.message
    }
  }

  @Test(arguments: JSONValueTests.roundTrips)
  func acceptsWhatTheParserAccepts(_ testCase: RoundTripCase) throws {
    #expect(rewriteProblem(Array(testCase.input.utf8)) == nil)
    let document = try JSONDocument(validating: Data(testCase.input.utf8))
    #expect(!document.isParsed)
    #expect(document.value == (try JSONValue(parsing: testCase.input)))
  }

  /// Thousands of near-JSON texts, made by cutting and splicing valid ones: the validator must
  /// accept exactly what the parser accepts when it reads an answer.
  @Test func validatorAndParserAgreeOnMutatedTexts() {
    let seeds = [
      #"[{"id":1,"name":"Kim","tags":["a","b"],"bio":null,"ok":true},{"id":-2.5e3,"x":{}}]"#,
      #"{"s":"a\"b\\c\/\n\u00e9\ud83d\ude00","n":[0,-0,1.25,1E+2],"f":false}"#,
      "[\"김치\",\"🐶\",\"\\u0041\",[[[]]],{\"\":\"\"}]",
    ]
    let pieces: [[UInt8]] =
      [
        "[", "]", "{", "}", ",", ":", "\"", "\\", "\\u", "\\ud83d", "\\udc00", "0", "-", ".", "e",
        "1",
        "tru", "null", " ", "\n", "é",
      ].map { Array($0.utf8) } + [
        [0xFF], [0xC3], [0xED, 0xA0, 0x80], [0x01], [0xF4, 0x90, 0x80, 0x80],
      ]
    var generator = SeededGenerator(seed: 0x5EED)
    var disagreements: [String] = []
    var checked = 0
    var accepted = 0
    for seed in seeds {
      let text = Array(seed.utf8)
      for _ in 0..<1500 {
        var mutated = text
        for _ in 0..<(1 + Int(generator.next() % 2)) {
          let at = Int(generator.next() % UInt64(mutated.count + 1))
          switch generator.next() % 3 {
          case 0 where at < mutated.count: mutated.remove(at: at)
          case 1 where at < mutated.count:
            mutated.replaceSubrange(
              at...at, with: pieces[Int(generator.next() % UInt64(pieces.count))])
          default:
            mutated.insert(contentsOf: pieces[Int(generator.next() % UInt64(pieces.count))], at: at)
          }
        }
        let verdict = verdicts(mutated)
        checked += 1
        if verdict.parser {
          accepted += 1
          if let problem = rewriteProblem(mutated) { disagreements.append(problem) }
        }
        if verdict.validator != verdict.parser {
          disagreements.append(String(decoding: mutated, as: UTF8.self))
        }
      }
    }
    #expect(checked == 4500)
    #expect(accepted > 200 && accepted < 4300, "the mutations must give both kinds: \(accepted)")
    #expect(disagreements.isEmpty, "validator and parser disagree on: \(disagreements.prefix(5))")
  }

  /// Rows as PostgREST writes them (jsonb's one space after `,` and `:`), whose later rows the
  /// validator reads a member at a time (`readRowMembers`), damaged at every byte: the validator
  /// and the parser agree on each.
  @Test func validatorAndParserAgreeOnRowsDamagedAtEveryByte() {
    let row =
      #"{"id": 1, "name": "Kim \"K\" é", "n": -2.5e3, "ok": true, "no": false, "bio": null, "#
      + #""a_key_of_sixteen": 0.5, "t": {"a": [1, 2]}, "z": "x\u00e9", "e": 1E+2}"#
    let body = Array(("[" + [row, row, row].joined(separator: ", \n ") + "]").utf8)
    let pieces: [[UInt8]] =
      [
        " ", "\n", ",", ":", "\"", "\\", "{", "}", "[", "]", "0", "01", "-", ".", "1.", "e", "tru",
        "nul", "x",
      ].map { Array($0.utf8) } + [[0x01], [0xFF], [0xC2, 0x85]]
    var disagreements: [String] = []
    var accepted = 0
    #expect(verdicts(body) == (true, true))
    for at in 0...body.count {
      var changed: [[UInt8]] = []
      for piece in pieces {
        var inserted = body
        inserted.insert(contentsOf: piece, at: at)
        changed.append(inserted)
        if at < body.count {
          var replaced = body
          replaced.replaceSubrange(at...at, with: piece)
          changed.append(replaced)
        }
      }
      if at < body.count {
        var removed = body
        removed.remove(at: at)
        changed.append(removed)
      }
      for text in changed {
        let verdict = verdicts(text)
        if verdict.parser { accepted += 1 }
        if verdict.validator != verdict.parser {
          disagreements.append(String(decoding: text, as: UTF8.self))
        }
      }
    }
    #expect(accepted > 1000, "the changes must leave some texts JSON: \(accepted)")
    #expect(disagreements.isEmpty, "validator and parser disagree on: \(disagreements.prefix(3))")
  }

  @Test func wellFormedUTF8FollowsTheUnicodeTable() {
    let cases: [([UInt8], Bool)] = [
      ([0x41], true), ([0xC3, 0xA9], true), ([0xE2, 0x82, 0xAC], true),
      ([0xF0, 0x9F, 0x90, 0xB6], true), ([0xC0, 0x80], false), ([0xE0, 0x80, 0x80], false),
      ([0xED, 0xA0, 0x80], false), ([0xF4, 0x90, 0x80, 0x80], false), ([0xF5], false),
      ([0x80], false), ([0xC3], false), ([0xEF, 0xBF, 0xBF], true),
    ]
    for (bytes, valid) in cases {
      let verdict = bytes.withUnsafeBufferPointer {
        JSONValidator.isWellFormedUTF8($0, 0..<bytes.count)
      }
      #expect(verdict == valid, "\(bytes)")
      #expect(verdict == (String(validating: bytes, as: UTF8.self) != nil))
    }
  }
}
