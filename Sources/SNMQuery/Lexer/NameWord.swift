/// Eight bytes of a name at once: which of them continue a name, their lowercase, and the
/// first `count` of them. Exact byte by byte up to the first byte that is not a name byte (a
/// byte of 0x80 or more may carry into the bytes after it, which a scan for a name's end never
/// reads), with the first byte in the lowest bits (`load`). Its own constants and load, written
/// here: SNMWire's `ByteWord` is not inlined across modules in this build (each use of it was a
/// call, more than the test it stands in for).
///
/// ```swift
/// let stops = ~NameWord.flags(NameWord.load(bytes, at: offset)) & NameWord.highs
/// if stops != 0 { end = offset + stops.trailingZeroBitCount / 8 }
/// ```
enum NameWord {
  @inline(__always) static var ones: UInt64 { 0x0101_0101_0101_0101 }
  @inline(__always) static var highs: UInt64 { 0x8080_8080_8080_8080 }

  /// The eight bytes at `offset` (which must leave eight in `bytes`), the first in the lowest bits.
  @inline(__always) static func load(_ bytes: UnsafeBufferPointer<UInt8>, at offset: Int) -> UInt64
  {
    UInt64(
      littleEndian: UnsafeRawBufferPointer(bytes).loadUnaligned(
        fromByteOffset: offset, as: UInt64.self))
  }

  /// 0x80 in the place of each byte at or above `low` (of bytes below 0x80).
  @inline(__always) static func atLeast(_ low: UInt8, in word: UInt64) -> UInt64 {
    word &+ ones &* UInt64(0x80 &- low)
  }

  /// 0x80 in the place of each byte from `low` to `high` (of bytes below 0x80).
  @inline(__always) static func within(_ low: UInt8, _ high: UInt8, in word: UInt64) -> UInt64 {
    atLeast(low, in: word) & ~atLeast(high &+ 1, in: word) & highs
  }

  /// 0x80 in the place of each byte that is `byte` (below 0x80).
  @inline(__always) static func equal(_ byte: UInt8, in word: UInt64) -> UInt64 {
    let difference = word ^ (ones &* UInt64(byte))
    let low7 = ones &* 0x7F
    return ~(((difference & low7) &+ low7) | difference) & highs
  }

  /// 0x80 in the place of each byte of `[A-Za-z0-9_$]` (`isNameByte`).
  @inline(__always) static func flags(_ word: UInt64) -> UInt64 {
    let letters = within(0x41, 0x5A, in: word) | within(0x61, 0x7A, in: word)
    let others =
      within(0x30, 0x39, in: word) | equal(UInt8(ascii: "_"), in: word)
      | equal(UInt8(ascii: "$"), in: word)
    return (letters | others) & ~word
  }

  /// `word` with `A`-`Z` made `a`-`z` (as `PackedWord.lowercased` makes each byte).
  @inline(__always) static func lowercased(_ word: UInt64) -> UInt64 {
    word | ((within(0x41, 0x5A, in: word) & ~word) >> 2)
  }

  /// The first `count` (0 to 8) bytes of a word.
  @inline(__always) static func first(_ count: Int, of word: UInt64) -> UInt64 {
    count >= 8 ? word : word & ((1 &<< UInt64(count &* 8)) &- 1)
  }

  /// The end of the name bytes from `start` (`start` itself when there are none): eight bytes at
  /// a time while eight are left, then one at a time.
  @inline(__always) static func end(in bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
    let count = bytes.count
    var end = start
    while end &+ 8 <= count {
      let stops = ~flags(load(bytes, at: end)) & highs
      if stops != 0 { return end &+ stops.trailingZeroBitCount &>> 3 }
      end &+= 8
    }
    while end < count && isNameByte(bytes[end]) { end &+= 1 }
    return end
  }
}
