import SNMNetwork
import SNMWire
import Testing

@testable import SNMShell

/// A csv field is scanned eight bytes at a time and copied in runs: it must be quoted, and its
/// quotes doubled, exactly where a byte-by-byte reading of RFC 4180 says.
@Suite struct CSVFieldTests {
  /// The field as a byte at a time writes it.
  static func naive(_ text: [UInt8]) -> [UInt8] {
    let special: Set<UInt8> = [UInt8(ascii: ","), UInt8(ascii: "\""), 0x0A, 0x0D]
    guard text.contains(where: special.contains) else { return text }
    var out: [UInt8] = [UInt8(ascii: "\"")]
    for byte in text {
      if byte == UInt8(ascii: "\"") { out.append(byte) }
      out.append(byte)
    }
    return out + [UInt8(ascii: "\"")]
  }

  static func written(_ text: [UInt8]) -> [UInt8] {
    let output = JSONTextBuffer(capacity: 64)
    text.withUnsafeBufferPointer { CSVField.write($0, emptyQuoted: true, into: output) }
    return Array(output.written)
  }

  @Test func everyByteAtEveryPositionIsQuotedAsRFC4180Says() {
    for byte in 0...0x7F {
      for position in 0..<19 {
        var text = [UInt8](repeating: UInt8(ascii: "a"), count: 19)
        text[position] = UInt8(byte)
        #expect(Self.written(text) == Self.naive(text), "byte \(byte) at \(position)")
      }
    }
  }

  @Test func quotesAreDoubledWhereverTheyStand() {
    for text in [
      #"""#, #""""#, #"a"b"#, #""a""#, #"x,"y"z""#, String(repeating: #"ab"cd,"#, count: 5),
      "두부 \"🐕\"", "line\r\nend\"",
    ] {
      let bytes = Array(text.utf8)
      #expect(Self.written(bytes) == Self.naive(bytes), "\(text)")
    }
  }

  /// A field that is exactly `\.` is quoted, as psql's csv quotes it (header or value): a line
  /// `\.` alone is end-of-data to `COPY ... FROM STDIN` and psql's `\copy`, which stopped
  /// reading a one-column file there and loaded none of the rows after it.
  @Test func theEndOfDataMarkerIsQuoted() {
    #expect(Self.written(Array(#"\."#.utf8)) == Array(#""\.""#.utf8))
    #expect(CSVRenderer.field(#"\."#) == #""\.""#)
    for text in [#"\.."#, #"\\."#, #".\."#, #"\"#, ".", #"\.\."#] {
      #expect(Self.written(Array(text.utf8)) == Array(text.utf8), "\(text)")
    }
    let output = JSONTextBuffer(capacity: 64)
    CSVField.write(.string, UnsafeBufferPointer(start: nil, count: 0), into: output)
    Array(#"\."#.utf8).withUnsafeBufferPointer { CSVField.write(.string, $0, into: output) }
    #expect(Array(output.written) == Array(#""""\.""#.utf8))
  }

  /// A header is quoted by the same rules, byte by byte: a quote that a combining mark follows
  /// (one Character, not equal to `"`) is doubled too, as every other quote is.
  @Test func headerNamesAreQuotedAsFieldsAre() {
    #expect(Array(CSVRenderer.field("a\"\u{301}b").utf8) == Array("\"a\"\"\u{301}b\"".utf8))
    #expect(CSVRenderer.field("plain") == "plain")
    #expect(CSVRenderer.field("") == "")
    #expect(CSVRenderer.field("Lee, Min") == "\"Lee, Min\"")
    #expect(CSVRenderer.field("두부 \"🐕\"") == "\"두부 \"\"🐕\"\"\"")
  }
}
