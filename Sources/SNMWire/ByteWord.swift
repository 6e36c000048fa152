/// Eight bytes tested at once: whether any byte of a 64-bit word is below a value, or equal to
/// one. Each test is exact for *whether* some byte matches, not for which (a borrow may flag the
/// bytes above a match), so a scan that meets a flagged word goes on byte by byte from it.
///
/// ```swift
/// let word = ByteWord.load(bytes, at: index)
/// if ByteWord.below(0x20, in: word) | ByteWord.equal(0x7F, in: word) == 0 { index += 8 }
/// ```
enum ByteWord {
  static let ones: UInt64 = 0x0101_0101_0101_0101
  static let highs: UInt64 = 0x8080_8080_8080_8080

  /// Nonzero (high bits) when some byte of `word` is below `limit` (at most 0x80).
  @inline(__always)
  static func below(_ limit: UInt8, in word: UInt64) -> UInt64 {
    (word &- ones &* UInt64(limit)) & ~word & highs
  }

  /// Nonzero (high bits) when some byte of `word` is `byte`.
  @inline(__always)
  static func equal(_ byte: UInt8, in word: UInt64) -> UInt64 {
    below(1, in: word ^ (ones &* UInt64(byte)))
  }

  /// The eight bytes at `offset` (which must leave eight in `bytes`), in memory order.
  @inline(__always)
  static func load(_ bytes: UnsafeBufferPointer<UInt8>, at offset: Int) -> UInt64 {
    UnsafeRawBufferPointer(bytes).loadUnaligned(fromByteOffset: offset, as: UInt64.self)
  }
}
