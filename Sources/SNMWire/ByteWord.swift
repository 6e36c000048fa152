/// Eight bytes tested at once: whether any byte of a 64-bit word is below a value, or equal to
/// one. Each test is exact for *whether* some byte matches, not for which (a borrow may flag the
/// bytes above a match), so a scan that meets a flagged word goes on byte by byte from it.
///
/// ```swift
/// let word = ByteWord.load(bytes, at: index)
/// if ByteWord.below(0x20, in: word) | ByteWord.equal(0x7F, in: word) == 0 { index += 8 }
/// ```
package enum ByteWord {
  // Inlinable, as everything here, so that the shell's scans (csv fields) inline them too.
  @inlinable package static var ones: UInt64 { 0x0101_0101_0101_0101 }
  @inlinable package static var highs: UInt64 { 0x8080_8080_8080_8080 }

  /// Nonzero (high bits) when some byte of `word` is below `limit` (at most 0x80).
  @inlinable @inline(__always)
  package static func below(_ limit: UInt8, in word: UInt64) -> UInt64 {
    (word &- ones &* UInt64(limit)) & ~word & highs
  }

  /// Nonzero (high bits) when some byte of `word` is `byte`.
  @inlinable @inline(__always)
  package static func equal(_ byte: UInt8, in word: UInt64) -> UInt64 {
    below(1, in: word ^ (ones &* UInt64(byte)))
  }

  /// The eight bytes at `offset` (which must leave eight in `bytes`), the first in the lowest
  /// bits (so a flag's `trailingZeroBitCount / 8` is how far into the eight it is).
  @inlinable @inline(__always)
  package static func load(_ bytes: UnsafeBufferPointer<UInt8>, at offset: Int) -> UInt64 {
    UInt64(
      littleEndian: UnsafeRawBufferPointer(bytes).loadUnaligned(
        fromByteOffset: offset, as: UInt64.self))
  }
}
