/// RFC 4648 base32 (`A`-`Z`, `2`-`7`), the alphabet of TOTP secrets and otpauth URIs.
///
/// ```swift
/// Base32.encode(Array("foo".utf8))        // "MZXW6"  (no padding, as authenticator apps take it)
/// Base32.decode("mzxw 6===")              // [0x66, 0x6f, 0x6f]: any case, spaces and padding ignored
/// ```
/// `decode` returns nil for a character outside the alphabet or a length no encoding has.
public enum Base32 {
  static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567".utf8)

  /// `bytes` in base32 without `=` padding.
  public static func encode(_ bytes: [UInt8]) -> String {
    var output: [UInt8] = []
    output.reserveCapacity((bytes.count * 8 + 4) / 5)
    var buffer: UInt32 = 0
    var bits = 0
    for byte in bytes {
      buffer = (buffer << 8) | UInt32(byte)
      bits += 8
      while bits >= 5 {
        bits -= 5
        output.append(alphabet[Int((buffer >> UInt32(bits)) & 31)])
      }
    }
    if bits > 0 { output.append(alphabet[Int((buffer << UInt32(5 - bits)) & 31)]) }
    return String(decoding: output, as: UTF8.self)
  }

  /// The bytes `text` encodes; nil when it is not base32.
  public static func decode(_ text: String) -> [UInt8]? {
    var output: [UInt8] = []
    var buffer: UInt32 = 0
    var bits = 0
    var count = 0
    for character in text.utf8 {
      if character == UInt8(ascii: " ") || character == UInt8(ascii: "=")
        || character == UInt8(ascii: "-")
      {
        continue
      }
      let value: UInt8
      switch character {
      case UInt8(ascii: "A")...UInt8(ascii: "Z"): value = character - UInt8(ascii: "A")
      case UInt8(ascii: "a")...UInt8(ascii: "z"): value = character - UInt8(ascii: "a")
      case UInt8(ascii: "2")...UInt8(ascii: "7"): value = character - UInt8(ascii: "2") + 26
      default: return nil
      }
      count += 1
      buffer = (buffer << 5) | UInt32(value)
      bits += 5
      if bits >= 8 {
        bits -= 8
        output.append(UInt8((buffer >> UInt32(bits)) & 0xff))
      }
    }
    // 1, 3 and 6 leftover characters are lengths no byte string encodes to.
    guard ![1, 3, 6].contains(count % 8) else { return nil }
    return output
  }
}
