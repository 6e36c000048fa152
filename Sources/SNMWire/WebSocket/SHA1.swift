/// SHA-1 (FIPS 180-4), for the one place the WebSocket handshake needs it (RFC 6455 §4.2.2: the
/// accept key). Not for anything that must resist collisions.
///
/// ```swift
/// SHA1.digest(Array("abc".utf8))   // a9 99 3e 36 ... (20 bytes)
/// ```
public enum SHA1 {
  /// The 20-byte digest of `message`.
  public static func digest(_ message: [UInt8]) -> [UInt8] {
    var state: [UInt32] = [0x6745_2301, 0xEFCD_AB89, 0x98BA_DCFE, 0x1032_5476, 0xC3D2_E1F0]
    let padded = SHABlocks.padded(message)
    var words = [UInt32](repeating: 0, count: 80)
    for blockStart in stride(from: 0, to: padded.count, by: 64) {
      compress(padded, at: blockStart, into: &state, words: &words)
    }
    return SHABlocks.bytes(state)
  }

  /// The 64-byte block of `padded` at `start` folded into the state.
  private static func compress(
    _ padded: [UInt8], at start: Int, into state: inout [UInt32], words: inout [UInt32]
  ) {
    SHABlocks.readWords(padded, at: start, into: &words)
    for index in 16..<80 {
      words[index] = rotate(
        words[index - 3] ^ words[index - 8] ^ words[index - 14] ^ words[index - 16], by: 1)
    }
    var (a, b, c, d, e) = (state[0], state[1], state[2], state[3], state[4])
    for index in 0..<80 {
      let mixed: UInt32
      let constant: UInt32
      switch index {
      case 0..<20:
        mixed = (b & c) | (~b & d)
        constant = 0x5A82_7999
      case 20..<40:
        mixed = b ^ c ^ d
        constant = 0x6ED9_EBA1
      case 40..<60:
        mixed = (b & c) | (b & d) | (c & d)
        constant = 0x8F1B_BCDC
      default:
        mixed = b ^ c ^ d
        constant = 0xCA62_C1D6
      }
      let next = rotate(a, by: 5) &+ mixed &+ e &+ constant &+ words[index]
      e = d
      d = c
      c = rotate(b, by: 30)
      b = a
      a = next
    }
    state[0] = state[0] &+ a
    state[1] = state[1] &+ b
    state[2] = state[2] &+ c
    state[3] = state[3] &+ d
    state[4] = state[4] &+ e
  }

  private static func rotate(_ value: UInt32, by count: UInt32) -> UInt32 {
    value << count | value >> (32 - count)
  }
}
