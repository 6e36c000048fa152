/// Percent-encoding for URLs that PostgREST reads exactly as meant, and the decoding both sides
/// read paths and query strings with.
///
/// PostgREST decodes `+` as a space and splits pairs on `&` and `;`, so every byte outside the
/// unreserved set `A-Z a-z 0-9 - . _ ~` is written as `%XX` (UTF-8, uppercase hex).
///
/// ```swift
/// PercentEncoding.encode("fat & cat")                     // "fat%20%26%20cat"
/// PercentEncoding.encode("eq.+1;2")                       // "eq.%2B1%3B2"
/// PercentEncoding.decode("a%20b+c", plusIsSpace: true)    // "a b c"
/// ```
public enum PercentEncoding {
  /// Encodes every byte outside `A-Z a-z 0-9 - . _ ~`.
  public static func encode(_ text: String) -> String {
    var output: [UInt8] = []
    output.reserveCapacity(text.utf8.count)
    append(text, to: &output)
    return String(decoding: output, as: UTF8.self)
  }

  /// Appends `text` encoded as `encode` does: a URL is written into one buffer.
  public static func append(_ text: String, to output: inout [UInt8]) {
    var text = text
    text.withUTF8 { bytes in
      for byte in bytes {
        if isUnreserved(byte) {
          output.append(byte)
        } else {
          output.append(UInt8(ascii: "%"))
          output.append(hexDigits[Int(byte >> 4)])
          output.append(hexDigits[Int(byte & 0x0f)])
        }
      }
    }
  }

  /// Decodes `%XX` sequences (and `+` as a space when `plusIsSpace`); malformed escapes are kept
  /// as written (as PostgREST does), bytes that are not UTF-8 become U+FFFD.
  public static func decode(_ text: some StringProtocol, plusIsSpace: Bool = false) -> String {
    let bytes = text.utf8
    func escapes(_ byte: UInt8) -> Bool {
      byte == UInt8(ascii: "%") || plusIsSpace && byte == UInt8(ascii: "+")
    }
    // Over the contiguous bytes when the text has them (a native string does): the generic
    // walk costs hundreds of instructions for a short name.
    let escaped =
      bytes.withContiguousStorageIfAvailable { $0.contains(where: escapes) }
      ?? bytes.contains(where: escapes)
    guard escaped else { return String(text) }
    return String(decoding: decode(bytes: bytes, plusIsSpace: plusIsSpace), as: UTF8.self)
  }

  /// The bytes `encoded` stands for: `%XX` as one byte, `+` as a space when `plusIsSpace`,
  /// malformed escapes kept as written. For callers that check the bytes (NUL, UTF-8) themselves.
  public static func decode(bytes encoded: some Collection<UInt8>, plusIsSpace: Bool) -> [UInt8] {
    let bytes = Array(encoded)
    var output: [UInt8] = []
    output.reserveCapacity(bytes.count)
    var index = 0
    while index < bytes.count {
      let byte = bytes[index]
      if byte == UInt8(ascii: "%"), index + 2 < bytes.count,
        let high = HexDigit.value(bytes[index + 1]), let low = HexDigit.value(bytes[index + 2])
      {
        output.append(high << 4 | low)
        index += 3
      } else {
        output.append(plusIsSpace && byte == UInt8(ascii: "+") ? 0x20 : byte)
        index += 1
      }
    }
    return output
  }

  /// `true` for `A-Z a-z 0-9 - . _ ~`.
  public static func isUnreserved(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
      UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."),
      UInt8(ascii: "_"),
      UInt8(ascii: "~"):
      true
    default: false
    }
  }

  private static let hexDigits = Array("0123456789ABCDEF".utf8)
}
