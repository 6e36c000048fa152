/// Finds where the plain part of a JSON string ends, eight bytes at a time.
///
/// ```swift
/// let stop = JSONByteScan.plainRun(bytes, from: quote + 1)
/// // bytes[stop] is '"', '\\', a control character, a non-ASCII byte, or stop == bytes.count
/// ```
enum JSONByteScan {
  /// The value of the four hex digits at `start` (a `\\uXXXX` escape's), or nil when there are
  /// not four of them.
  static func hex4(_ bytes: UnsafeBufferPointer<UInt8>, at start: Int) -> UInt16? {
    guard start >= 0, start + 4 <= bytes.count else { return nil }
    var value: UInt16 = 0
    for byte in bytes[start..<start + 4] {
      guard let digit = HexDigit.value(byte) else { return nil }
      value = value << 4 | UInt16(digit)
    }
    return value
  }

  /// The offset of the first byte at or after `start` that is a quote, a backslash, below U+0020
  /// or not ASCII (or `bytes.count`): everything before it can be copied as it is.
  @inline(__always)
  static func plainRun(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
    // Below 0x20, a quote, a backslash, or a high bit (which flags itself).
    firstStop(bytes, from: start) {
      ByteWord.below(0x20, in: $0) | ByteWord.equal(0x22, in: $0) | ByteWord.equal(0x5C, in: $0)
        | $0 & ByteWord.highs
    } stops: {
      $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") || $0 < 0x20 || $0 >= 0x80
    }
  }

  /// The offset of the first byte at or after `start` that is not a digit (or `bytes.count`).
  @inline(__always)
  static func digitsEnd(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
    // Below '0', or above '9' (0x3A + 0x46 sets a byte's high bit; a byte with it set already
    // flags itself, and a carry out of it flags only the bytes above it).
    firstStop(bytes, from: start) {
      ByteWord.below(0x30, in: $0) | ($0 &+ 0x4646_4646_4646_4646 | $0) & ByteWord.highs
    } stops: {
      $0 &- 0x30 >= 10
    }
  }

  /// The offset of the first byte at or after `start` that stops a run (or `bytes.count`), eight
  /// bytes at a time: `flags` gives the high bit of each byte of a word (the first byte lowest)
  /// that stops it, exact for the lowest one; `stops` says it of one byte, for the last few.
  @inline(__always)
  static func firstStop(
    _ bytes: UnsafeBufferPointer<UInt8>, from start: Int, flags: (UInt64) -> UInt64,
    stops: (UInt8) -> Bool
  ) -> Int {
    var index = start
    while index + 8 <= bytes.count {
      let flagged = flags(ByteWord.load(bytes, at: index))
      if flagged == 0 {
        index += 8
        continue
      }
      // The lowest flag is exact (a borrow flags only bytes above a match), and memory order is
      // the word's little-endian order: no byte-by-byte walk up to it.
      return index + flagged.trailingZeroBitCount >> 3
    }
    while index < bytes.count && !stops(bytes[index]) { index += 1 }
    return index
  }
}
