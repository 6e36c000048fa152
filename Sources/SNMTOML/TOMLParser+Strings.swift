extension TOMLParser {
  /// `"..."`: escapes, one line, no control characters.
  mutating func basicString() throws(TOMLError) -> String {
    let start = position
    index += 1
    var text: [UInt8] = []
    while true {
      guard let byte = peek(), byte != UInt8(ascii: "\n"), byte != UInt8(ascii: "\r") else {
        throw error("this string does not end on its line (expected '\"')", at: start)
      }
      switch byte {
      case UInt8(ascii: "\""):
        index += 1
        return String(decoding: text, as: UTF8.self)
      case UInt8(ascii: "\\"):
        text += try escape()
      default:
        try refuseControl(byte)
        text.append(byte)
        index += 1
      }
    }
  }

  /// `'...'`: no escapes, one line.
  mutating func literalString() throws(TOMLError) -> String {
    let start = position
    index += 1
    let begin = index
    while true {
      guard let byte = peek(), byte != UInt8(ascii: "\n"), byte != UInt8(ascii: "\r") else {
        throw error("this string does not end on its line (expected \"'\")", at: start)
      }
      if byte == UInt8(ascii: "'") { break }
      try refuseControl(byte)
      index += 1
    }
    let text = String(decoding: bytes[begin..<index], as: UTF8.self)
    index += 1
    return text
  }

  /// `"""..."""`: escapes, newlines, a line-ending backslash that joins lines.
  mutating func multilineBasicString() throws(TOMLError) -> String {
    try multilineString(quote: UInt8(ascii: "\""), escapes: true)
  }

  /// `'''...'''`: newlines, no escapes.
  mutating func multilineLiteralString() throws(TOMLError) -> String {
    try multilineString(quote: UInt8(ascii: "'"), escapes: false)
  }

  /// A multi-line string closed by three `quote`s; with `escapes`, a backslash starts an escape
  /// or, at the end of a line, joins it to the next.
  mutating func multilineString(quote: UInt8, escapes: Bool) throws(TOMLError) -> String {
    let start = position
    index += 3
    _ = try newline()
    var text: [UInt8] = []
    while true {
      guard let byte = peek() else {
        let closing = quote == UInt8(ascii: "'") ? "\"'''\"" : "'\"\"\"'"
        throw error("this string has no closing \(closing)", at: start)
      }
      switch byte {
      case quote:
        if let closing = try closingQuotes(quote) {
          text += closing
          return String(decoding: text, as: UTF8.self)
        }
        text.append(byte)
        index += 1
      case UInt8(ascii: "\\") where escapes:
        if try lineEndingBackslash() { continue }
        text += try escape()
      case UInt8(ascii: "\n"), UInt8(ascii: "\r"):
        _ = try newline()
        text.append(UInt8(ascii: "\n"))
      default:
        try refuseControl(byte)
        text.append(byte)
        index += 1
      }
    }
  }

  /// At a quote inside a multi-line string: when three or more follow, the string ends and
  /// the one or two before the last three belong to it (returned); nil when fewer than three.
  mutating func closingQuotes(_ quote: UInt8) throws(TOMLError) -> [UInt8]? {
    var count = 0
    while peek(count) == quote { count += 1 }
    guard count >= 3 else { return nil }
    guard count <= 5 else { throw error("too many quotes at the end of a multi-line string") }
    index += count
    return Array(repeating: quote, count: count - 3)
  }

  /// A backslash, blanks and a newline inside `"""`: the newline and the blanks and newlines
  /// after it are dropped. False (nothing consumed) when the backslash starts an escape.
  mutating func lineEndingBackslash() throws(TOMLError) -> Bool {
    var ahead = 1
    while let byte = peek(ahead), byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") {
      ahead += 1
    }
    guard peek(ahead) == UInt8(ascii: "\n") || peek(ahead) == UInt8(ascii: "\r") else {
      return false
    }
    index += ahead
    while true {
      skipWhitespace()
      guard try newline() else { return true }
    }
  }

  /// `\n`, `\"`, `\u00e9`, ...: the bytes it stands for.
  mutating func escape() throws(TOMLError) -> [UInt8] {
    let start = position
    index += 1
    guard let byte = peek() else { throw error("a string ends inside an escape", at: start) }
    index += 1
    switch byte {
    case UInt8(ascii: "b"): return [0x08]
    case UInt8(ascii: "t"): return [0x09]
    case UInt8(ascii: "n"): return [0x0A]
    case UInt8(ascii: "f"): return [0x0C]
    case UInt8(ascii: "r"): return [0x0D]
    case UInt8(ascii: "\""): return [0x22]
    case UInt8(ascii: "\\"): return [0x5C]
    case UInt8(ascii: "u"), UInt8(ascii: "U"):
      let count = byte == UInt8(ascii: "u") ? 4 : 8
      guard index + count <= bytes.count,
        let code = UInt32(
          String(decoding: bytes[index..<(index + count)], as: UTF8.self), radix: 16),
        bytes[index..<(index + count)].allSatisfy({ Character(Unicode.Scalar($0)).isHexDigit }),
        let scalar = Unicode.Scalar(code)
      else {
        throw error(
          "'\\\(Character(Unicode.Scalar(byte)))' needs \(count) hex digits of a unicode scalar value",
          at: start)
      }
      index += count
      return Array(String(Character(scalar)).utf8)
    default:
      let shown = Self.isControl(byte) ? Self.hex(byte) : String(Character(Unicode.Scalar(byte)))
      throw error("unknown escape '\\\(shown)' in a string", at: start)
    }
  }

  func refuseControl(_ byte: UInt8) throws(TOMLError) {
    if Self.isControl(byte) {
      throw error("a string may not hold the control character \(Self.hex(byte)) (write an escape)")
    }
  }

  // MARK: - Bytes

  /// C0 controls but tab, and DEL.
  static func isControl(_ byte: UInt8) -> Bool {
    (byte < 0x20 && byte != 0x09) || byte == 0x7F
  }

  static func isBareKey(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
      UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"), UInt8(ascii: "-"):
      true
    default: false
    }
  }

  static func isWord(_ byte: UInt8) -> Bool {
    isBareKey(byte) || byte == UInt8(ascii: "+") || byte == UInt8(ascii: ".")
      || byte == UInt8(ascii: ":")
  }

  static func hex(_ byte: UInt8) -> String {
    let digits = String(byte, radix: 16, uppercase: true)
    return "U+" + String(repeating: "0", count: 4 - digits.count) + digits
  }

  /// The offset of the first byte that is not part of well-formed UTF-8, or nil.
  static func firstInvalidUTF8(_ bytes: [UInt8]) -> Int? {
    var offset = 0
    while offset < bytes.count {
      let lead = bytes[offset]
      let length: Int
      var low: UInt8 = 0x80
      var high: UInt8 = 0xBF
      switch lead {
      case 0x00...0x7F: length = 1
      case 0xC2...0xDF: length = 2
      case 0xE0:
        length = 3
        low = 0xA0
      case 0xE1...0xEC, 0xEE...0xEF: length = 3
      case 0xED:
        length = 3
        high = 0x9F
      case 0xF0:
        length = 4
        low = 0x90
      case 0xF1...0xF3: length = 4
      case 0xF4:
        length = 4
        high = 0x8F
      default: return offset
      }
      guard offset + length <= bytes.count else { return offset }
      for next in 1..<length {
        let byte = bytes[offset + next]
        let (min, max) = next == 1 ? (low, high) : (UInt8(0x80), UInt8(0xBF))
        guard byte >= min && byte <= max else { return offset }
      }
      offset += length
    }
    return nil
  }
}
