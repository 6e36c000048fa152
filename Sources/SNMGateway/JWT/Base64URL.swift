/// Unpadded base64url (RFC 4648 §5), as JWTs use it.
///
/// ```swift
/// Base64URL.encode(Array("hi".utf8))   // "aGk"
/// Base64URL.decode("aGk")              // [104, 105]
/// ```
package enum Base64URL {
  static let alphabet = Array(
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

  package static func encode(_ bytes: [UInt8]) -> String {
    var output: [UInt8] = []
    output.reserveCapacity((bytes.count * 4 + 2) / 3)
    var index = 0
    while index + 3 <= bytes.count {
      let chunk =
        UInt32(bytes[index]) << 16 | UInt32(bytes[index + 1]) << 8 | UInt32(bytes[index + 2])
      for shift in [18, 12, 6, 0] { output.append(alphabet[Int(chunk >> UInt32(shift) & 63)]) }
      index += 3
    }
    let rest = bytes.count - index
    if rest == 1 {
      let chunk = UInt32(bytes[index]) << 16
      for shift in [18, 12] { output.append(alphabet[Int(chunk >> UInt32(shift) & 63)]) }
    } else if rest == 2 {
      let chunk = UInt32(bytes[index]) << 16 | UInt32(bytes[index + 1]) << 8
      for shift in [18, 12, 6] { output.append(alphabet[Int(chunk >> UInt32(shift) & 63)]) }
    }
    return String(decoding: output, as: UTF8.self)
  }

  /// Decodes unpadded (or padded) base64url; `nil` for any other character or a bad length.
  package static func decode<S: StringProtocol>(_ text: S) -> [UInt8]? {
    var values: [UInt8] = []
    values.reserveCapacity(text.utf8.count)
    for byte in text.utf8 {
      switch byte {
      case 65...90: values.append(byte - 65)
      case 97...122: values.append(byte - 71)
      case 48...57: values.append(byte + 4)
      case UInt8(ascii: "-"): values.append(62)
      case UInt8(ascii: "_"): values.append(63)
      case UInt8(ascii: "="): continue
      default: return nil
      }
    }
    guard values.count % 4 != 1 else { return nil }
    var output: [UInt8] = []
    output.reserveCapacity(values.count * 3 / 4)
    var index = 0
    while index < values.count {
      let count = min(4, values.count - index)
      var chunk: UInt32 = 0
      for offset in 0..<4 {
        chunk <<= 6
        if offset < count { chunk |= UInt32(values[index + offset]) }
      }
      output.append(UInt8(chunk >> 16 & 0xFF))
      if count > 2 { output.append(UInt8(chunk >> 8 & 0xFF)) }
      if count > 3 { output.append(UInt8(chunk & 0xFF)) }
      index += 4
    }
    return output
  }
}
