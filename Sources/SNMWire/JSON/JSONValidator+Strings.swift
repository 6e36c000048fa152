extension JSONValidator {
  /// Skips a string starting at its opening quote: escapes as the parser decodes them (lone
  /// surrogates taken), no raw control characters, well-formed UTF-8. Inlined where it is used (a
  /// value, a key): its call cost more than a short string's scan.
  @inline(__always)
  mutating func skipString() -> Bool {
    var index = offset + 1
    var highBits: UInt8 = 0
    let start = index
    while index < bytes.count {
      index = JSONByteScan.plainRun(bytes, from: index)
      guard index < bytes.count else { break }
      let byte = bytes[index]
      if byte == UInt8(ascii: "\"") {
        offset = index + 1
        // Escapes are ASCII and decode to whole scalars, so the raw bytes are well-formed UTF-8
        // exactly when the decoded ones are.
        return highBits < 0x80 || Self.isWellFormedUTF8(bytes, start..<index)
      }
      if byte == UInt8(ascii: "\\") {
        guard let next = Self.skipEscape(bytes, at: index) else { return false }
        index = next
        continue
      }
      if byte < 0x20 { return false }
      highBits |= byte
      index += 1
    }
    return false
  }

  /// The offset after the escape at `index` (a backslash), or nil when the parser would refuse it.
  /// Static: a method on the validator copied it whole at each string that called it.
  private static func skipEscape(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int) -> Int? {
    guard index + 1 < bytes.count else { return nil }
    switch bytes[index + 1] {
    case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"),
      UInt8(ascii: "f"), UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
      return index + 2
    case UInt8(ascii: "u"):
      // Any four hex digits: a surrogate without its pair too (RFC 8259's grammar allows it, a
      // Postgres `json` value keeps it), read as the parser does for answers
      // (``JSONParser/takesLoneSurrogates``). A pair is two such escapes.
      guard JSONByteScan.hex4(bytes, at: index + 2) != nil else { return nil }
      return index + 6
    default:
      return nil
    }
  }

  /// Whether `range` of `bytes` is well-formed UTF-8 (Unicode table 3-7: no overlong forms, no
  /// surrogates, nothing above U+10FFFF), as `String(validating:)` requires.
  static func isWellFormedUTF8(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Bool {
    var index = range.lowerBound
    let end = range.upperBound
    func continuation(_ at: Int, _ low: UInt8 = 0x80, _ high: UInt8 = 0xBF) -> Bool {
      at < end && bytes[at] >= low && bytes[at] <= high
    }
    while index < end {
      let lead = bytes[index]
      switch lead {
      case 0x00...0x7F:
        index += 1
      case 0xC2...0xDF:
        guard continuation(index + 1) else { return false }
        index += 2
      case 0xE0...0xEF:
        let low: UInt8 = lead == 0xE0 ? 0xA0 : 0x80
        let high: UInt8 = lead == 0xED ? 0x9F : 0xBF
        guard continuation(index + 1, low, high), continuation(index + 2) else { return false }
        index += 3
      case 0xF0...0xF4:
        let low: UInt8 = lead == 0xF0 ? 0x90 : 0x80
        let high: UInt8 = lead == 0xF4 ? 0x8F : 0xBF
        guard continuation(index + 1, low, high), continuation(index + 2), continuation(index + 3)
        else { return false }
        index += 4
      default:
        return false
      }
    }
    return true
  }
}
