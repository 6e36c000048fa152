import Foundation
import Testing

@testable import SNMWire

/// Rows written as csv records straight from their bytes (``JSONElements/writeNextRowAsCSV(into:)``,
/// one pass) must be, byte for byte, what writing each value ``JSONElements/nextRow(_:)`` hands
/// over with ``CSVField`` gives, from the bytes and from the parsed tree.
@Suite struct CSVRecordTests {
  /// The records of `input`'s rows, each ended by LF, and the error the walk stopped with.
  static func records(_ input: [UInt8], oneValueAtATime: Bool, tree: Bool = false)
    -> (text: [UInt8], error: JSONParseError?)
  {
    let output = JSONTextBuffer(capacity: 64)
    func walk(_ elements: inout JSONElements) throws {
      while true {
        var first = true
        let more: Bool
        if oneValueAtATime {
          more = try elements.nextRow { kind, text in
            if !first { output.append(UInt8(ascii: ",")) }
            first = false
            CSVField.write(kind, text, into: output)
          }
        } else {
          more = try elements.writeNextRowAsCSV(into: output)
        }
        guard more else { return }
        output.append(0x0A)
      }
    }
    do {
      if tree {
        guard case .array(let rows) = try JSONValue(parsing: Data(input)) else {
          return ([], nil)
        }
        var elements = JSONElements(rows)
        try walk(&elements)
      } else {
        try input.withUnsafeBufferPointer { bytes in
          try JSONElements.withElements(of: bytes, from: .start) { try walk(&$0) }
        }
      }
      return (Array(output.written), nil)
    } catch {
      return (Array(output.written), error as? JSONParseError)
    }
  }

  static func expectSame(_ input: [UInt8], tree: Bool = true, _ comment: Comment? = nil) {
    let written = records(input, oneValueAtATime: false)
    let visited = records(input, oneValueAtATime: true)
    #expect(written.error == visited.error, comment)
    #expect(
      String(decoding: written.text, as: UTF8.self)
        == String(decoding: visited.text, as: UTF8.self),
      comment)
    #expect(written.text == visited.text, comment)
    if tree {
      #expect(written.text == records(input, oneValueAtATime: true, tree: true).text, comment)
    }
  }

  @Test(arguments: [
    #"[{"a":"","b":null,"c":"x","d":true,"e":false,"f":0,"g":-1.5e-7}]"#,
    #"[{"a":"Lee, Min","b":"says \"hi\"","c":"line\nbreak","d":"cr\rhere","e":"tab\there"}]"#,
    #"[{"a":"\u00e9\u0041\/\\","b":"\ud83d\udc15 dog","c":"\u0000","d":"\u0085 c1","e":",\""}]"#,
    "[{\"a\":\"\u{85}raw c1\",\"b\":\"\u{A0}nbsp\",\"c\":\"두부 🐕, 콤마\",\"d\":\"12345678,\"}]",
    #"[{"a":{},"b":[],"c":{ },"d":[ ],"e":[1],"f":[1,2],"g":{"k":"v"},"h":[true,null,false]}]"#,
    #"[{"t":{"vet": {"name": "Seoul Vet", "visits": [2023, 2024]}, "tricks": ["sit", "paw"]}}]"#,
    #"[{"t":{"a\"b": "c\\d", "e": "\u0085", "f": "\n"}},{"t":[[[[]]]]},{"t":[[[[1]]]]}]"#,
    "[ {\r\n \"a\" \t: \"x\" , \"b\" :\n[ 1 ,\t{ \"c\" : [ ] } ] ,\"c\": 12 \n}\n,\n{\"a\":\"y\",\"b\":[],\"c\":3} ]",
    #"[{"n":12345678901234567890,"m":1E+2,"o":-0,"p":0.000001,"q":[1e5,-2E-3,7]}]"#,
    #"[{"s":"exactly8","t":"sixteen-bytes-xx","u":"1234567","v":"123456789"}]"#,
    #"[{"s":"quote at eight\"","t":"comma at eight,","u":"\\","v":"\"","w":","}]"#,
    #"[]"#, #"[{}]"#, #"[{},{}]"#, #"[{"a":1},{},{"b":2}]"#,
  ])
  func recordsAreWhatTheValuesWrittenOneByOneGive(_ input: String) {
    Self.expectSame(Array(input.utf8))
  }

  /// Every length of string up to 40 bytes, with a comma, quote, escape or multibyte character
  /// at every place, in a row of one and of two fields: the eight-byte steps meet each at every
  /// offset and at the buffer's end.
  @Test func everySpecialByteAtEveryPlaceOfEveryLength() {
    let specials = [",", #"\""#, #"\\"#, #"\n"#, #"\u00e9"#, "é", "🐕", "\u{85}", " "]
    for length in 0...40 {
      for special in specials {
        for place in 0...length {
          var text = String(repeating: "a", count: place) + special
          text += String(repeating: "b", count: length - place)
          Self.expectSame(
            Array("[{\"a\":\"\(text)\"}]".utf8), "\(special) at \(place) of \(length)")
          Self.expectSame(
            Array("[{\"a\":\"\(text)\",\"b\":[\"\(text)\",\(length)]}]".utf8),
            "nested \(special) at \(place) of \(length)")
        }
      }
    }
  }

  /// Random rows: strings of every kind of byte and escape, numbers in every form, nested values
  /// with whitespace between their tokens, against the values written one by one.
  @Test func randomRowsAgree() {
    var random = SeededRandom(seed: 41)
    for round in 0..<400 {
      var text = "["
      for row in 0..<random.next(upTo: 6) {
        if row > 0 { text += random.space() + "," + random.space() }
        text += "{"
        for column in 0..<random.next(upTo: 8) {
          if column > 0 { text += "," + random.space() }
          text += "\"k\(column)\"" + random.space() + ":" + random.space()
          text += random.value(depth: 0)
        }
        text += random.space() + "}"
      }
      text += "]"
      Self.expectSame(Array(text.utf8), "round \(round): \(text)")
    }
  }

  /// Objects nested near the limit in a field: refused, or written, as the writer's own walk
  /// refuses or writes them.
  @Test func nestingNearTheLimitIsTheWritersCall() {
    for depth in (JSONParser.maximumDepth - 4)...(JSONParser.maximumDepth) {
      for inner in ["1", ""] {
        let value =
          String(repeating: "[", count: depth) + inner + String(repeating: "]", count: depth)
        Self.expectSame(Array("[{\"a\":\(value)}]".utf8), tree: false, "depth \(depth) \(inner)")
      }
    }
  }

  /// Bytes that are not an array of objects stop both walks at the same place.
  @Test(arguments: [
    "[1]", #"[{"a":1},2]"#, #"[{"a" 1}]"#, #"[{"a":1 "b":2}]"#, #"[{"a":tru}]"#, #"[{"a":nul}]"#,
    #"[{"a":"x"#, #"[{"a":[1,2"#, #"[{"a":"#, #"{"a":1}"#,
  ])
  func faultsStopBothWalksAlike(_ input: String) {
    let written = Self.records(Array(input.utf8), oneValueAtATime: false)
    let visited = Self.records(Array(input.utf8), oneValueAtATime: true)
    #expect(written.error != nil)
    #expect(written.error == visited.error)
    #expect(written.text == visited.text)
  }
}

/// A small seeded generator of JSON pieces for ``CSVRecordTests``.
struct SeededRandom {
  var state: UInt64

  init(seed: UInt64) { state = seed &* 0x9E37_79B9_7F4A_7C15 | 1 }

  mutating func next(upTo bound: Int) -> Int {
    state ^= state << 13
    state ^= state >> 7
    state ^= state << 17
    return Int(state % UInt64(max(bound, 1)))
  }

  mutating func space() -> String {
    ["", "", "", " ", "\n", "\t ", "\r\n  "][next(upTo: 7)]
  }

  mutating func string() -> String {
    let pieces = [
      "a", "bc", "defghijk", " ", ",", #"\""#, #"\\"#, #"\/"#, #"\n"#, #"\r"#, #"\t"#, #"\b"#,
      #"\f"#, #"\u0001"#, #"\u001f"#, #"\u00e9"#, #"\u0085"#, #"\ud83d\udc15"#, "é", "\u{85}",
      "\u{9F}", "\u{A0}", "\u{C2}\u{A9}", "두부", "🐕", "0123456789", "\u{7F}",
    ]
    var text = "\""
    for _ in 0..<next(upTo: 7) { text += pieces[next(upTo: pieces.count)] }
    return text + "\""
  }

  mutating func value(depth: Int) -> String {
    switch next(upTo: depth > 3 ? 6 : 9) {
    case 0: return "null"
    case 1: return ["true", "false"][next(upTo: 2)]
    case 2:
      return ["0", "-0", "12", "-3.25", "1e5", "1E+2", "-2.5e-7", "12345678901234567890", "0.1"][
        next(upTo: 9)]
    case 3, 4, 5: return string()
    case 6:
      var text = "[" + space()
      for index in 0..<next(upTo: 4) {
        if index > 0 { text += space() + "," + space() }
        text += value(depth: depth + 1)
      }
      return text + space() + "]"
    default:
      var text = "{" + space()
      for index in 0..<next(upTo: 4) {
        if index > 0 { text += space() + "," + space() }
        text += string() + space() + ":" + space() + value(depth: depth + 1)
      }
      return text + space() + "}"
    }
  }
}
