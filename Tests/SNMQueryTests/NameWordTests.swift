import Testing

@testable import SNMQuery

/// `NameWord` tests eight bytes at once what `isNameByte` and `PackedWord` test one at a time:
/// the same answers for every byte at every place, with any bytes around it.
@Suite struct NameWordTests {
  /// A word of eight `fill` bytes with `byte` at `place`.
  static func word(_ byte: UInt8, at place: Int, fill: UInt8) -> UInt64 {
    var bytes = [UInt8](repeating: fill, count: 8)
    bytes[place] = byte
    // The first byte in the lowest bits, as ByteWord.load reads them.
    return bytes.reversed().reduce(0) { ($0 << 8) | UInt64($1) }
  }

  @Test func everyByteAtEveryPlaceIsANameByteExactlyWhenIsNameByteSaysSo() {
    // Fills of name bytes: the flag of a byte is read where every byte before it is one.
    for fill in [UInt8(ascii: "a"), UInt8(ascii: "Z"), UInt8(ascii: "_"), UInt8(ascii: "0")] {
      for place in 0..<8 {
        for value in 0...255 {
          let byte = UInt8(value)
          let flags = NameWord.flags(NameWordTests.word(byte, at: place, fill: fill))
          let flagged = (flags >> UInt64(place * 8)) & 0x80 != 0
          #expect(flagged == isNameByte(byte), "byte \(value) at \(place)")
          // The bytes before it keep their own answer whatever it is.
          for before in 0..<place {
            #expect((flags >> UInt64(before * 8)) & 0x80 != 0, "fill before \(value) at \(place)")
          }
        }
      }
    }
  }

  @Test func lowercaseIsEachBytesLowercase() {
    for place in 0..<8 {
      for value in 0..<128 {
        let byte = UInt8(value)
        let lowered = NameWord.lowercased(
          NameWordTests.word(byte, at: place, fill: UInt8(ascii: "Q")))
        #expect((lowered >> UInt64(place * 8)) & 0xFF == PackedWord.lowercased(byte), "\(value)")
        for other in 0..<8 where other != place {
          #expect((lowered >> UInt64(other * 8)) & 0xFF == UInt64(UInt8(ascii: "q")))
        }
      }
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
        let found = bytes.withUnsafeBufferPointer { NameWord.end(in: $0, from: start) }
        #expect(found == expected, "\(bytes) from \(start)")
      }
    }
  }

  @Test func theFirstBytesOfAWord() {
    let word: UInt64 = 0x8877_6655_4433_2211
    #expect(NameWord.first(0, of: word) == 0)
    #expect(NameWord.first(3, of: word) == 0x33_2211)
    #expect(NameWord.first(8, of: word) == word)
  }
}
