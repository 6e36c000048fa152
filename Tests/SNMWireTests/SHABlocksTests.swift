import Testing

@testable import SNMWire

/// The padding and block words SHA-1 and SNMCrypto's SHA-256 share (FIPS 180-4 §5.1.1), at
/// every message length across three blocks' boundaries, against the standard's own terms.
@Suite struct SHABlocksTests {
  @Test func paddingEndsEveryMessageOnABlockWithItsLengthInBits() {
    for length in 0...200 {
      let message = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ 1) }
      let padded = SHABlocks.padded(message)
      let zeros = (55 - length % 64 + 64) % 64
      #expect(padded.count == length + 1 + zeros + 8, "length \(length)")
      #expect(padded.count % 64 == 0, "length \(length)")
      #expect(Array(padded.prefix(length)) == message, "length \(length)")
      #expect(padded[length] == 0x80, "length \(length)")
      #expect(padded[(length + 1)..<(padded.count - 8)].allSatisfy { $0 == 0 }, "length \(length)")
      let bits = padded.suffix(8).reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
      #expect(bits == UInt64(length) * 8, "length \(length)")
    }
  }

  @Test func wordsAreReadAndWrittenBigEndian() {
    let padded = SHABlocks.padded(Array("abc".utf8))
    var words = [UInt32](repeating: 0, count: 16)
    SHABlocks.readWords(padded, at: 0, into: &words)
    #expect(words[0] == 0x6162_6380)
    #expect(words[1...14].allSatisfy { $0 == 0 })
    #expect(words[15] == 24)
    #expect(SHABlocks.bytes(words) == padded)
    #expect(SHABlocks.bytes([0x0102_0304, 0xA0B0_C0D0]) == [1, 2, 3, 4, 0xA0, 0xB0, 0xC0, 0xD0])
  }

  @Test func sha1AtTheLengthsAroundTheBlockBoundaries() {
    // 55 bytes of 'a' pad within their block, 56 and 63 into a second, 64 and 120 after a
    // whole block or two, 119 fill the second block's room for the length exactly.
    let known: [(Int, String)] = [
      (55, "c1c8bbdc22796e28c0e15163d20899b65621d65a"),
      (56, "c2db330f6083854c99d4b5bfb6e8f29f201be699"),
      (63, "03f09f5b158a7a8cdad920bddc29b81c18a551f5"),
      (64, "0098ba824b5c16427bd7a1122a5a442a25ec644d"),
      (119, "ee971065aaa017e0632a8ca6c77bb3bf8b1dfc56"),
      (120, "f34c1488385346a55709ba056ddd08280dd4c6d6"),
    ]
    for (length, expected) in known {
      let digest = SHA1.digest([UInt8](repeating: 0x61, count: length))
      let hex = digest.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
      #expect(hex == expected, "length \(length)")
    }
  }
}
