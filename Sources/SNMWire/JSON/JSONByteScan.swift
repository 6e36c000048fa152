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

  private static let ones: UInt64 = 0x0101_0101_0101_0101
  private static let highs: UInt64 = 0x8080_8080_8080_8080

  /// The offset of the first byte at or after `start` that is a quote, a backslash, below U+0020
  /// or not ASCII (or `bytes.count`): everything before it can be copied as it is.
  @inline(__always)
  static func plainRun(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
    var index = start
    if let base = bytes.baseAddress {
      let raw = UnsafeRawPointer(base)
      while index + 8 <= bytes.count {
        let word = raw.loadUnaligned(fromByteOffset: index, as: UInt64.self)
        let quote = word ^ (ones &* 0x22)
        let backslash = word ^ (ones &* 0x5C)
        // Per byte: below 0x20, zero in `quote` or `backslash` (the byte was one), or a high bit.
        // Exact whenever no byte has its high bit, which is flagged by itself.
        let below = (word &- ones &* 0x20) & ~word
        let quotes = (quote &- ones) & ~quote
        let backslashes = (backslash &- ones) & ~backslash
        let flagged = (below | quotes | backslashes | word) & highs
        if flagged == 0 { index += 8 } else { break }
      }
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
