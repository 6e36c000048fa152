/// What SHA-1 and SHA-256 (FIPS 180-4) do alike around their compression functions: pad the
/// message to whole 64-byte blocks (§5.1.1), read a block's sixteen big-endian words (§6.1.2,
/// §6.2.2), and write the final state out big-endian. ``SHA1`` (the WebSocket accept key) and
/// SNMCrypto's `SHA256Digest` (the session's key marks) use it.
///
/// ```swift
/// let padded = SHABlocks.padded(Array("abc".utf8))   // 64 bytes: abc, 0x80, zeros, then 24
/// SHABlocks.readWords(padded, at: 0, into: &words)   // words[0] == 0x6162_6380
/// ```
package enum SHABlocks {
  /// `message`, a 0x80 byte, zeros to 56 modulo 64, and its length in bits (big-endian).
  @inlinable
  package static func padded(_ message: [UInt8]) -> [UInt8] {
    var padded = message
    padded.append(0x80)
    while padded.count % 64 != 56 { padded.append(0) }
    let bits = UInt64(message.count) &* 8
    for shift in stride(from: 56, through: 0, by: -8) {
      padded.append(UInt8(truncatingIfNeeded: bits >> UInt64(shift)))
    }
    return padded
  }

  /// The sixteen big-endian words of the 64-byte block at `start` into `words[0..<16]`.
  @inlinable @inline(__always)
  package static func readWords(_ bytes: [UInt8], at start: Int, into words: inout [UInt32]) {
    for index in 0..<16 {
      let at = start + index * 4
      words[index] =
        UInt32(bytes[at]) << 24 | UInt32(bytes[at + 1]) << 16
        | UInt32(bytes[at + 2]) << 8 | UInt32(bytes[at + 3])
    }
  }

  /// `words` big-endian, four bytes each: the digest of the final state.
  @inlinable
  package static func bytes(_ words: [UInt32]) -> [UInt8] {
    var out: [UInt8] = []
    out.reserveCapacity(words.count * 4)
    for word in words {
      out.append(UInt8(truncatingIfNeeded: word >> 24))
      out.append(UInt8(truncatingIfNeeded: word >> 16))
      out.append(UInt8(truncatingIfNeeded: word >> 8))
      out.append(UInt8(truncatingIfNeeded: word))
    }
    return out
  }
}
