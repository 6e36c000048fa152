/// Percent-decoding for URL paths and query strings.
///
/// ```swift
/// PercentDecoding.decode("a%20b+c", plusIsSpace: true)   // "a b c"
/// ```
/// Invalid escapes are kept as written; bytes that are not UTF-8 become U+FFFD.
public enum PercentDecoding {
  public static func decode<S: StringProtocol>(_ text: S, plusIsSpace: Bool) -> String {
    let bytes = Array(text.utf8)
    guard bytes.contains(UInt8(ascii: "%")) || (plusIsSpace && bytes.contains(UInt8(ascii: "+")))
    else { return String(text) }
    var output: [UInt8] = []
    output.reserveCapacity(bytes.count)
    var index = 0
    while index < bytes.count {
      let byte = bytes[index]
      if byte == UInt8(ascii: "%"), index + 2 < bytes.count,
        let high = hexValue(bytes[index + 1]), let low = hexValue(bytes[index + 2])
      {
        output.append(high << 4 | low)
        index += 3
      } else if byte == UInt8(ascii: "+"), plusIsSpace {
        output.append(0x20)
        index += 1
      } else {
        output.append(byte)
        index += 1
      }
    }
    return String(decoding: output, as: UTF8.self)
  }

  static func hexValue(_ byte: UInt8) -> UInt8? {
    switch byte {
    case 48...57: byte - 48
    case 65...70: byte - 55
    case 97...102: byte - 87
    default: nil
    }
  }
}
