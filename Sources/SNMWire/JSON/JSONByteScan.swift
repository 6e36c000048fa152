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
    var index = start
    while index + 8 <= bytes.count {
      let word = ByteWord.load(bytes, at: index)
      // Below 0x20, a quote, a backslash, or a high bit (which flags itself).
      let flagged =
        ByteWord.below(0x20, in: word) | ByteWord.equal(0x22, in: word)
        | ByteWord.equal(0x5C, in: word) | word & ByteWord.highs
      if flagged == 0 {
        index += 8
        continue
      }
      // The lowest flag is exact (a borrow flags only bytes above a match), and memory order is
      // the word's little-endian order: no byte-by-byte walk up to it.
      return index + flagged.trailingZeroBitCount >> 3
    }
    while index < bytes.count {
      let byte = bytes[index]
      if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte < 0x20 || byte >= 0x80 {
        return index
      }
      index += 1
    }
    return index
  }
}
