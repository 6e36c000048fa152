/// Percent-encoding for URLs that PostgREST reads exactly as meant.
///
/// PostgREST decodes `+` as a space and splits pairs on `&` and `;`, so every byte outside the
/// unreserved set `A-Z a-z 0-9 - . _ ~` is written as `%XX` (UTF-8, uppercase hex).
///
/// ```swift
/// PercentEncoding.encode("fat & cat")     // "fat%20%26%20cat"
/// PercentEncoding.encode("eq.+1;2")       // "eq.%2B1%3B2"
/// ```
public enum PercentEncoding {
  /// Encodes every byte outside `A-Z a-z 0-9 - . _ ~`.
  public static func encode(_ text: String) -> String {
    var output: [UInt8] = []
    output.reserveCapacity(text.utf8.count)
    for byte in text.utf8 {
      if isUnreserved(byte) {
        output.append(byte)
      } else {
        output.append(UInt8(ascii: "%"))
        output.append(hexDigits[Int(byte >> 4)])
        output.append(hexDigits[Int(byte & 0x0f)])
      }
    }
    return String(decoding: output, as: UTF8.self)
  }

  /// Decodes `%XX` sequences; malformed ones are kept as written (as PostgREST does). `+` stays `+`.
  public static func decode(_ text: String) -> String {
    let bytes = Array(text.utf8)
    var output: [UInt8] = []
    output.reserveCapacity(bytes.count)
    var index = 0
    while index < bytes.count {
      if bytes[index] == UInt8(ascii: "%"), index + 2 < bytes.count,
        let high = hexValue(bytes[index + 1]), let low = hexValue(bytes[index + 2])
      {
        output.append(high << 4 | low)
        index += 3
      } else {
        output.append(bytes[index])
        index += 1
      }
    }
    return String(decoding: output, as: UTF8.self)
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

  private static func hexValue(_ byte: UInt8) -> UInt8? {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
    case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
    case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
    default: nil
    }
  }
}
