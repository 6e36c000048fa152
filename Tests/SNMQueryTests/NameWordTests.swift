import Testing

@testable import SNMQuery

/// The lexer's byte table and `NameWord` give the answers `isNameByte` gives one byte at a time.
@Suite struct NameWordTests {
  @Test func theByteTableMarksExactlyTheNameBytes() {
    let classes = ByteClass.shared
    for value in 0...255 {
      let byte = UInt8(value)
      #expect((classes.table[value] & ByteClass.nameByte != 0) == isNameByte(byte), "\(value)")
      #expect(
        (classes.table[value] & ByteClass.wordStop != 0)
          == (byte == UInt8(ascii: "-") || byte >= 0x80), "\(value)")
    }
  }

  @Test func aNamesEndIsFoundAsTheByteLoopFindsIt() {
    let alphabet =
      Array("aZ_$09-. é\n\"'(".utf8) + [0x00, 0x7F, 0x80, 0xFF, 0x40, 0x5B, 0x60, 0x7B]
    var state: UInt64 = 41
    for _ in 0..<4000 {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      let length = Int(state >> 59)
      var bytes: [UInt8] = []
      for index in 0..<length {
        let pick = Int((state >> UInt64(index % 50)) & 0xFF) % (alphabet.count + 8)
        bytes.append(pick < alphabet.count ? alphabet[pick] : UInt8(ascii: "k"))
      }
      for start in 0...bytes.count {
        var expected = start
        while expected < bytes.count && isNameByte(bytes[expected]) { expected += 1 }
        let found = bytes.withUnsafeBufferPointer {
          ByteClass.shared.nameEnd(in: $0, from: start)
        }
        #expect(found == expected, "\(bytes) from \(start)")
      }
    }
  }

  /// `firstBelow` and `firstEqual` mark the first byte that is below the limit (or is the byte)
  /// exactly, and mark nothing when no byte is: over words of every byte near the limits, the
  /// quotes, `\`, and bytes from 0x80, which borrow into the byte after them or not.
  @Test func theFirstByteBelowOrEqualIsMarkedExactly() {
    let picks: [UInt8] = [
      0x00, 0x01, 0x0A, 0x20, 0x22, 0x24, 0x27, 0x28, 0x29, 0x5B, 0x5C, 0x5D, 0x61, 0x7F, 0x80,
      0xA8, 0xDC, 0xFF,
    ]
    var state: UInt64 = 7
    for _ in 0..<20000 {
      var bytes: [UInt8] = []
      for _ in 0..<8 {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        bytes.append(picks[Int(state >> 33) % picks.count])
      }
      let word = bytes.withUnsafeBufferPointer { NameWord.load($0, at: 0) }
      for (limit, marks) in [
        (UInt8(ascii: "("), NameWord.firstBelow(UInt8(ascii: "("), in: word)),
        (UInt8(1), NameWord.firstBelow(1, in: word)),
      ] {
        let first = bytes.firstIndex { $0 < limit }
        #expect(marks == 0 ? first == nil : marks.trailingZeroBitCount == (first ?? -1) * 8 + 7)
      }
      let backslashes = NameWord.firstEqual(UInt8(ascii: "\\"), in: word)
      let first = bytes.firstIndex(of: UInt8(ascii: "\\"))
      #expect(
        backslashes == 0 ? first == nil : backslashes.trailingZeroBitCount == (first ?? -1) * 8 + 7,
        "\(bytes)")
    }
  }

  @Test func theFirstBytesOfAWord() {
    let word: UInt64 = 0x8877_6655_4433_2211
    #expect(NameWord.first(0, of: word) == 0)
    #expect(NameWord.first(3, of: word) == 0x33_2211)
    #expect(NameWord.first(8, of: word) == word)
  }
}
