import Testing

@testable import SNMWire

// The cases the gateway's own JSON parser was tested with before it was folded into this one.

struct JSONCase: Sendable, CustomStringConvertible {
  var text: String
  var canonical: String
  var description: String { text }
}

struct BadJSONCase: Sendable, CustomStringConvertible {
  var text: String
  var offset: Int
  var description: String { text }
}

@Test(arguments: [
  JSONCase(
    text: #"{"a": 1, "b": [true, false, null]}"#, canonical: #"{"a":1,"b":[true,false,null]}"#),
  JSONCase(text: #""\u00e9\ud83d\ude00\n""#, canonical: "\"é😀\\n\""),
  JSONCase(text: "-12.5e+3", canonical: "-12.5e+3"),
  JSONCase(text: #"{"k":"강아지 🐶","k":2}"#, canonical: #"{"k":"강아지 🐶","k":2}"#),
  JSONCase(text: "12345678901234567890123", canonical: "12345678901234567890123"),
])
func parsesAndSerialisesRoundTrip(_ example: JSONCase) throws {
  #expect(try JSONValue(parsing: example.text).serialized() == example.canonical)
}

@Test(arguments: [
  BadJSONCase(text: "{", offset: 1),
  BadJSONCase(text: "[1,]", offset: 3),
  BadJSONCase(text: "01", offset: 0),
  BadJSONCase(text: #"{"a" 1}"#, offset: 5),
  BadJSONCase(text: "\"\u{01}\"", offset: 1),
  BadJSONCase(text: #""\ud800""#, offset: 1),
  BadJSONCase(text: "nul", offset: 3),
  BadJSONCase(text: "", offset: 0),
])
func rejectsMalformedJSONWithOffset(_ example: BadJSONCase) {
  #expect(throws: JSONParseError.self) { try JSONValue(parsing: example.text) }
  do {
    _ = try JSONValue(parsing: example.text)
  } catch {
    #expect(error.offset == example.offset)
  }
}

@Test func refusesDeepNesting() {
  let deep = String(repeating: "[", count: 16_400) + String(repeating: "]", count: 16_400)
  #expect(throws: JSONParseError.self) { try JSONValue(parsing: deep) }
}

@Test func escapesControlCharactersAndQuotes() {
  let value = JSONValue.string("a\"b\\c\u{1}\t")
  #expect(value.serialized() == #""a\"b\\c\u0001\t""#)
}

@Test func subscriptFindsLastDuplicateKey() throws {
  let value = try JSONValue(parsing: #"{"role":"anon","role":"service_role","n":3}"#)
  #expect(value["role"]?.stringValue == "service_role")
  #expect(value["n"]?.intValue == 3)
  #expect(value["missing"] == nil)
}
