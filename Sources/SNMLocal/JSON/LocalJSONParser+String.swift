extension LocalJSONParser {
  /// Reads a string literal starting at the opening quote; rejects control characters and bad UTF-8.
  mutating func string() throws(LocalJSONError) -> String {
    index += 1
    var output: [UInt8] = []
    while true {
      guard index < bytes.count else { throw failure("unterminated string") }
      let byte = bytes[index]
      if byte == UInt8(ascii: "\"") {
        index += 1
        break
      }
      if byte < 0x20 { throw failure("control character in string") }
      if byte != UInt8(ascii: "\\") {
        output.append(byte)
        index += 1
        continue
      }
      index += 1
      guard index < bytes.count else { throw failure("unterminated escape") }
      let escape = bytes[index]
      index += 1
      switch escape {
      case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): output.append(escape)
      case UInt8(ascii: "b"): output.append(0x08)
      case UInt8(ascii: "f"): output.append(0x0C)
      case UInt8(ascii: "n"): output.append(0x0A)
      case UInt8(ascii: "r"): output.append(0x0D)
      case UInt8(ascii: "t"): output.append(0x09)
      case UInt8(ascii: "u"):
        var scalar = try hex4()
        if (0xD800...0xDBFF).contains(scalar) {
          guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"),
            bytes[index + 1] == UInt8(ascii: "u")
          else { throw failure("unpaired surrogate") }
          index += 2
          let low = try hex4()
          guard (0xDC00...0xDFFF).contains(low) else { throw failure("unpaired surrogate") }
          scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
        } else if (0xDC00...0xDFFF).contains(scalar) {
          throw failure("unpaired surrogate")
        }
        guard let unicode = Unicode.Scalar(scalar) else { throw failure("invalid escape") }
        output.append(contentsOf: Array(String(Character(unicode)).utf8))
      default: throw failure("invalid escape")
      }
    }
    guard let text = String(validating: output, as: UTF8.self) else {
      throw failure("invalid UTF-8 in string")
    }
    return text
  }

  mutating func hex4() throws(LocalJSONError) -> UInt32 {
    guard index + 4 <= bytes.count else { throw failure("short \\u escape") }
    var value: UInt32 = 0
    for byte in bytes[index..<index + 4] {
      value <<= 4
      switch byte {
      case 48...57: value |= UInt32(byte - 48)
      case 65...70: value |= UInt32(byte - 55)
      case 97...102: value |= UInt32(byte - 87)
      default: throw failure("bad hex digit in \\u escape")
      }
    }
    index += 4
    return value
  }
}
