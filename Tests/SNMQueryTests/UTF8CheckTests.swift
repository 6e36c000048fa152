import SNMTestSupport
import Testing

@testable import SNMQuery

/// `UTF8Check` accepts exactly what the standard library's validation accepts (what a script
/// file's text was checked with before): every sequence of one and two bytes, every sequence of
/// three bytes a lead of 0xE0 or more starts, four-byte sequences with the continuation bytes at
/// and past each bound, each form after 0 to 40 ASCII bytes (the 32-byte steps, the eight-byte
/// ones and the byte-at-a-time end) and cut short at the end, and seeded random mixes.
@Suite struct UTF8CheckTests {
  /// The inputs where `UTF8Check` and `String(validating:as:)` disagree (at most a few kept).
  static func disagreements(_ inputs: some Sequence<[UInt8]>) -> [[UInt8]] {
    var found: [[UInt8]] = []
    for bytes in inputs
    where UTF8Check.isValid(bytes) != (String(validating: bytes, as: UTF8.self) != nil) {
      if found.count < 5 { found.append(bytes) }
    }
    return found
  }

  @Test func everyOneAndTwoByteSequence() {
    var inputs: [[UInt8]] = []
    for first in 0...255 {
      inputs.append([UInt8(first)])
      for second in 0...255 { inputs.append([UInt8(first), UInt8(second)]) }
    }
    #expect(UTF8CheckTests.disagreements(inputs) == [])
  }

  @Test func everyThreeByteSequenceOfALeadByte() {
    var found: [[UInt8]] = []
    // The leads of three- and four-byte forms, and the bytes past them (F5-F7).
    for lead in 0xE0...0xF7 {
      var inputs: [[UInt8]] = []
      for second in 0...255 {
        for third in 0...255 { inputs.append([UInt8(lead), UInt8(second), UInt8(third)]) }
      }
      found += UTF8CheckTests.disagreements(inputs)
    }
    #expect(found == [])
  }

  @Test func fourByteSequencesAroundEveryBound() {
    let edges: [UInt8] = [0x00, 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0, 0xFF]
    var inputs: [[UInt8]] = []
    for lead in 0xF0...0xF7 {
      for second in 0...255 {
        for third in edges {
          for fourth in edges { inputs.append([UInt8(lead), UInt8(second), third, fourth]) }
        }
      }
    }
    #expect(UTF8CheckTests.disagreements(inputs) == [])
  }

  @Test func sequencesAfterASCIIAndCutShort() {
    let samples: [[UInt8]] = [
      Array("산".utf8), Array("🐶".utf8), Array("é".utf8), [0xF4, 0x8F, 0xBF, 0xBF],
      [0xF4, 0x90, 0x80, 0x80], [0xED, 0x9F, 0xBF], [0xED, 0xA0, 0x80], [0xE0, 0x9F, 0xBF],
      [0xE0, 0xA0, 0x80], [0xC1, 0xBF], [0xC2, 0x80], [0xF0, 0x8F, 0xBF, 0xBF], [0x80], [0xFF],
    ]
    var inputs: [[UInt8]] = []
    for sample in samples {
      // 0 to 40 ASCII bytes before: through the 32-byte steps, the eight-byte ones and the
      // byte-at-a-time end, each at every offset.
      for before in 0...40 {
        let ascii = [UInt8](repeating: UInt8(ascii: "a"), count: before)
        for cut in 0...sample.count {
          inputs.append(ascii + sample.prefix(cut))
          inputs.append(ascii + sample.prefix(cut) + Array("from t select *".utf8))
        }
      }
    }
    #expect(UTF8CheckTests.disagreements(inputs) == [])
  }

  @Test func seededRandomMixes() {
    var generator = SeededGenerator(seed: 41)
    let pieces: [[UInt8]] = [
      Array("from dog_profile ".utf8), Array("산책 ".utf8), Array("🐶".utf8), [0x80], [0xC3],
      [0xE2, 0x82], [0xF0, 0x9F], [0xED, 0xB0, 0x80], [0xEF, 0xBB, 0xBF], Array("'x' ".utf8),
    ]
    var inputs: [[UInt8]] = []
    for _ in 0..<20_000 {
      var bytes: [UInt8] = []
      for _ in 0..<Int.random(in: 0...12, using: &generator) {
        bytes += pieces[Int.random(in: 0..<pieces.count, using: &generator)]
      }
      inputs.append(bytes)
    }
    #expect(UTF8CheckTests.disagreements(inputs) == [])
  }

  @Test func sourceOfValidBytesKeepsThemAndRefusesInvalidOnes() {
    let text = "from walk_request insert {\"message\": \"산책 🐶\"}\n"
    let source = Source(validUTF8: Array(text.utf8), fileName: "a.snm")
    #expect(source?.bytes == Array(text.utf8))
    #expect(source?.text == text)
    #expect(source?.fileName == "a.snm")
    #expect(Source(validUTF8: Array(text.utf8) + [0xFF], fileName: "a.snm") == nil)
  }
}
