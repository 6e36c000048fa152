import Testing

@testable import SNMLocal
@testable import SNMLocalREST

/// The gateway's JSON of a streamed row's columns, as Postgres's row_to_json writes each type
/// (the end-to-end test compares whole answers with Postgres itself).
@Suite struct RowJSONEncoderTests {
  func value(_ text: String, _ kind: RowJSONEncoder.Kind) -> String {
    var sink = ByteSink(capacity: 16)
    Array(text.utf8).withUnsafeBytes { RowJSONEncoder.appendValue($0, kind: kind, to: &sink) }
    return String(decoding: sink.array(), as: UTF8.self)
  }

  @Test func numbersAreRawUnlessNotJSONNumbers() {
    for number in ["0", "-0", "12.500", "1e+300", "1.5e-07", "-0.001", "123456789012345"] {
      #expect(value(number, .number) == number)
    }
    #expect(value("NaN", .number) == "\"NaN\"")
    #expect(value("Infinity", .number) == "\"Infinity\"")
    #expect(value("-Infinity", .number) == "\"-Infinity\"")
    for bad in ["", "-", "01", "1.", ".5", "1e", "1e+", "+1", "1.5.2"] {
      let bytes = Array(bad.utf8)
      #expect(!bytes.withUnsafeBytes { RowJSONEncoder.isJSONNumber($0) }, "\(bad)")
    }
  }

  @Test func stringsAreEscapedAsEscapeJSON() {
    #expect(value("a\"b\\c", .string) == #""a\"b\\c""#)
    #expect(
      value("\u{1}\n\t\u{8}\u{c}\r\u{1f}\u{7f}", .string)
        == "\"\\u0001\\n\\t\\b\\f\\r\\u001f\u{7f}\"")
    #expect(value("두부 🐕", .string) == "\"두부 🐕\"")
    #expect(value("", .string) == "\"\"")
    #expect(value("t", .boolean) == "true")
    #expect(value("f", .boolean) == "false")
    #expect(value(#"{"b": 1,  "a":[1]}"#, .json) == #"{"b": 1,  "a":[1]}"#)
  }

  @Test func timestampsTakeTAndAnOffsetWithMinutes() {
    #expect(value("2024-01-01 10:00:00.5", .timestamp) == "\"2024-01-01T10:00:00.5\"")
    #expect(value("2024-01-01 10:00:00+00", .timestampWithZone) == "\"2024-01-01T10:00:00+00:00\"")
    #expect(value("2024-01-01 10:00:00-08", .timestampWithZone) == "\"2024-01-01T10:00:00-08:00\"")
    #expect(
      value("2024-06-01 12:34:56.789+05:30", .timestampWithZone)
        == "\"2024-06-01T12:34:56.789+05:30\"")
    #expect(
      value("1850-01-01 05:53:28+05:53:28", .timestampWithZone)
        == "\"1850-01-01T05:53:28+05:53:28\"")
    #expect(
      value("0044-03-15 10:00:00+00 BC", .timestampWithZone)
        == "\"0044-03-15T10:00:00+00:00 BC\"")
    #expect(
      value("12345-01-01 00:00:00+02", .timestampWithZone) == "\"12345-01-01T00:00:00+02:00\"")
    #expect(value("infinity", .timestampWithZone) == "\"infinity\"")
    #expect(value("-infinity", .timestamp) == "\"-infinity\"")
  }

  @Test func knownTypesOnlyAndISODatesOnly() {
    #expect(RowJSONEncoder.kind(of: 1184, isoDates: true) == .timestampWithZone)
    #expect(RowJSONEncoder.kind(of: 1082, isoDates: false) == nil)
    #expect(RowJSONEncoder.kind(of: 1009, isoDates: true) == .array(.string))
    #expect(RowJSONEncoder.kind(of: 1185, isoDates: true) == .array(.timestampWithZone))
    #expect(RowJSONEncoder.kind(of: 1182, isoDates: false) == nil)
    #expect(RowJSONEncoder.kind(of: 2287, isoDates: true) == nil, "record[] is left to Postgres")
    #expect(RowJSONEncoder.kind(of: 26, isoDates: true) == .string, "an oid is a string in JSON")
    #expect(
      RowJSONEncoder(columns: ["d"], types: [1082], isoDates: false) == nil)
    #expect(RowJSONEncoder.datesAreISO("ISO, MDY"))
    #expect(!RowJSONEncoder.datesAreISO("SQL, DMY"))
    #expect(!RowJSONEncoder.datesAreISO(nil))
    #expect(RowJSONEncoder(columns: [String](), types: [UInt32](), isoDates: true) == nil)
    let encoder = RowJSONEncoder(
      columns: ["id", "we\"ird"], types: [23, 25], isoDates: true)
    #expect(encoder?.prefix(0) == "{\"id\":")
    #expect(encoder?.prefix(1) == ",\"we\\\"ird\":")
  }

  @Test func keysAndValuesLongerThanTheFirstRoomAreWhole() {
    // Control characters are six bytes each as JSON: far past a sink's first kilobyte.
    let name = String(repeating: "\u{1}", count: 700)
    let encoder = RowJSONEncoder(columns: [name, "b"], types: [25, 25], isoDates: true)
    #expect(encoder?.prefix(0) == "{\"" + String(repeating: "\\u0001", count: 700) + "\":")
    let long = String(repeating: "\"", count: 5_000)
    #expect(value(long, .string) == "\"" + String(repeating: "\\\"", count: 5_000) + "\"")
    #expect(
      value("{" + String(repeating: "\"\\\\\",", count: 999) + "x}", .array(.string))
        == "[" + String(repeating: "\"\\\\\",", count: 999) + "\"x\"]")
  }

  @Test func aSinkGrowsAndKeepsWhatItHad() {
    var sink = ByteSink(capacity: 4)
    for round in 0..<100 {
      let piece = Array("piece \(round);".utf8)
      sink.reserve(piece.count)
      piece.withUnsafeBytes { sink.append($0) }
    }
    #expect(sink.count == (0..<100).reduce(0) { $0 + "piece \($1);".utf8.count })
    #expect(String(decoding: sink.array(), as: UTF8.self).hasSuffix("piece 98;piece 99;"))
    #expect(String(decoding: sink.array(), as: UTF8.self).hasPrefix("piece 0;piece 1;"))
  }

  @Test func arraysAreArrayToJSON() {
    #expect(value("{}", .array(.number)) == "[]")
    #expect(value("{1,NULL,-3}", .array(.number)) == "[1,null,-3]")
    #expect(value("[0:1]={1,2}", .array(.number)) == "[1,2]")
    #expect(value("{{1,2},{3,NULL}}", .array(.number)) == "[[1,2],[3,null]]")
    #expect(value("{NaN,12.50}", .array(.number)) == "[\"NaN\",12.50]")
    #expect(
      value(#"{"NULL",NULL,"","a b","q\"u","b\\s","{x}","c,d",두부}"#, .array(.string))
        == #"["NULL",null,"","a b","q\"u","b\\s","{x}","c,d","두부"]"#)
    #expect(value(#"{"{\"a\": 1}",null}"#, .array(.json)) == #"[{"a": 1},null]"#)
    #expect(value("{t,f,NULL}", .array(.boolean)) == "[true,false,null]")
    #expect(
      value(#"{"2024-01-01 10:00:00+00","0044-03-15 10:00:00+00 BC"}"#, .array(.timestampWithZone))
        == #"["2024-01-01T10:00:00+00:00","0044-03-15T10:00:00+00:00 BC"]"#)
    #expect(value(#"{"\\x00ff"}"#, .array(.string)) == #"["\\x00ff"]"#)
  }
}
