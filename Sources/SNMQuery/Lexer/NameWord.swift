/// Eight bytes at once: loaded from a buffer (the first byte in the lowest bits), which of them
/// are a given byte, and the first `count` of them. Its own constants and load, written here:
/// SNMWire's `ByteWord` is not inlined across modules in this build (each use of it was a call,
/// more than the test it stands in for).
///
/// ```swift
/// let word = NameWord.load(bytes, at: offset)
/// let quotes = NameWord.equal(UInt8(ascii: "'"), in: word)   // 0x80 where a byte is '
/// NameWord.first(3, of: word)                                 // the first three bytes
/// ```
enum NameWord {
  @inline(__always) static var ones: UInt64 { 0x0101_0101_0101_0101 }
  @inline(__always) static var highs: UInt64 { 0x8080_8080_8080_8080 }

  /// The eight bytes at `offset` (which must leave eight in `bytes`), the first in the lowest bits.
  @inline(__always) static func load(_ bytes: UnsafeBufferPointer<UInt8>, at offset: Int) -> UInt64
  {
    // The buffer is not empty (eight bytes are left): its base address is not checked for nil.
    UInt64(
      littleEndian: UnsafeRawPointer(bytes.baseAddress.unsafelyUnwrapped).loadUnaligned(
        fromByteOffset: offset, as: UInt64.self))
  }

  /// 0x80 in the place of each byte that is `byte` (below 0x80).
  @inline(__always) static func equal(_ byte: UInt8, in word: UInt64) -> UInt64 {
    let difference = word ^ (ones &* UInt64(byte))
    let low7 = ones &* 0x7F
    return ~(((difference & low7) &+ low7) | difference) & highs
  }

  /// 0x80 in the place of the first byte of `word` that is below `limit` (at most 0x80), and
  /// perhaps of bytes after it (a borrow carries into them): zero exactly when no byte is. The
  /// lowest mark is exact, which is all a scan for its first stop needs: three operations where
  /// `equal` takes five.
  @inline(__always) static func firstBelow(_ limit: UInt8, in word: UInt64) -> UInt64 {
    (word &- ones &* UInt64(limit)) & ~word & highs
  }

  /// As `firstBelow`, for the bytes that are `byte`: the lowest mark is exact, those after it
  /// may not be.
  @inline(__always) static func firstEqual(_ byte: UInt8, in word: UInt64) -> UInt64 {
    firstBelow(1, in: word ^ (ones &* UInt64(byte)))
  }

  /// 0x80 in the place of the first byte of `word` that is not an ASCII letter, and perhaps of
  /// bytes after it (a carry out of a byte that is not a letter carries into them): zero exactly
  /// when all eight are letters. `folded` is `word` with each byte's 0x20 bit set (a letter's
  /// lowercase), which a letter keeps in `a`-`z`: the lowest mark is exact, as the bytes before
  /// it, letters, carry nothing.
  @inline(__always) static func firstNonLetter(_ word: UInt64, folded: UInt64) -> UInt64 {
    // Below `a` (0x1F more is under 0x80), above `z` (5 more is 0x80 or more), or not ASCII.
    (~(folded &+ ones &* 0x1F) | (folded &+ ones &* 0x05) | word) & highs
  }

  /// The first `count` (0 to 8) bytes of a word.
  @inline(__always) static func first(_ count: Int, of word: UInt64) -> UInt64 {
    count >= 8 ? word : word & ((1 &<< UInt64(count &* 8)) &- 1)
  }
}
