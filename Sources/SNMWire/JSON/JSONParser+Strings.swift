extension JSONParser {
  /// Reads a string starting at the opening quote. Without escapes the text is taken straight from
  /// the input (or `candidate` when its bytes are the same); with escapes it is built in `scratch`.
  mutating func readString(reusing candidate: String?) throws(JSONParseError) -> String {
    let quote = offset
    var index = offset + 1
    var highBits: UInt8 = 0
    while index < bytes.count {
      let byte = bytes[index]
      if byte == UInt8(ascii: "\"") {
        let run = UnsafeBufferPointer(rebasing: bytes[quote + 1..<index])
        offset = index + 1
        if let candidate, Self.same(candidate, run) {
          return candidate
        }
        return try makeString(run, ascii: highBits < 0x80, quote: quote)
      }
      if byte == UInt8(ascii: "\\") {
        return try readEscapedString(quote: quote, escape: index)
      }
      if byte < 0x20 {
        throw JSONParseError(offset: index, reason: .controlCharacterInString(byte))
      }
      highBits |= byte
      index += 1
    }
    offset = bytes.count
    throw expected("'\"' to close the string that starts at byte \(quote)")
  }

  /// `true` when `text`'s UTF-8 bytes are exactly `run`.
  private static func same(_ text: String, _ run: UnsafeBufferPointer<UInt8>) -> Bool {
    var text = text
    return text.withUTF8 { bytes in
      guard bytes.count == run.count else { return false }
      for index in 0..<bytes.count where bytes[index] != run[index] {
        return false
      }
      return true
    }
  }

  private func makeString(_ run: UnsafeBufferPointer<UInt8>, ascii: Bool, quote: Int)
    throws(JSONParseError) -> String
  {
    if ascii { return String(decoding: run, as: UTF8.self) }
    guard let text = String(validating: run, as: UTF8.self) else {
      throw JSONParseError(offset: quote, reason: .invalidUTF8)
    }
    return text
  }

  private mutating func readEscapedString(quote: Int, escape: Int) throws(JSONParseError) -> String
  {
    let highBits = try decodeEscapes(quote: quote, escape: escape)
    let ascii = highBits < 0x80 && !scratch.contains { $0 >= 0x80 }
    return try scratch.withUnsafeBufferPointer { run throws(JSONParseError) in
      try makeString(run, ascii: ascii, quote: quote)
    }
  }

  /// Decodes the string whose opening quote is at `quote` and whose first escape is at `escape`
  /// into `scratch` (its UTF-8, as the string read would hold it), and leaves `offset` just past
  /// its closing quote; returns its unescaped bytes or'd together.
  mutating func decodeEscapes(quote: Int, escape: Int) throws(JSONParseError) -> UInt8 {
    scratch.removeAll(keepingCapacity: true)
    if !loneSurrogates.isEmpty { loneSurrogates.removeAll(keepingCapacity: true) }
    scratch.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[quote + 1..<escape]))
    var highBits: UInt8 = 0
    var index = escape
    while index < bytes.count {
      let byte = bytes[index]
      if byte == UInt8(ascii: "\"") {
        offset = index + 1
        return highBits
      }
      if byte == UInt8(ascii: "\\") {
        index = try readEscape(at: index)
        continue
      }
      if byte < 0x20 {
        throw JSONParseError(offset: index, reason: .controlCharacterInString(byte))
      }
      highBits |= byte
      scratch.append(byte)
      index += 1
    }
    offset = bytes.count
    throw expected("'\"' to close the string that starts at byte \(quote)")
  }

  /// Decodes the escape at `index` (a backslash) into `scratch`; returns the offset after it.
  private mutating func readEscape(at index: Int) throws(JSONParseError) -> Int {
    guard index + 1 < bytes.count else {
      offset = bytes.count
      throw expected("an escape character after '\\'")
    }
    let simple: UInt8? =
      switch bytes[index + 1] {
      case UInt8(ascii: "\""): UInt8(ascii: "\"")
      case UInt8(ascii: "\\"): UInt8(ascii: "\\")
      case UInt8(ascii: "/"): UInt8(ascii: "/")
      case UInt8(ascii: "b"): 0x08
      case UInt8(ascii: "f"): 0x0c
      case UInt8(ascii: "n"): 0x0a
      case UInt8(ascii: "r"): 0x0d
      case UInt8(ascii: "t"): 0x09
      default: nil
      }
    if let simple {
      scratch.append(simple)
      return index + 2
    }
    guard bytes[index + 1] == UInt8(ascii: "u") else {
      let found = bytes[index + 1]
      let shown =
        found > 0x20 && found < 0x7f
        ? String(Character(Unicode.Scalar(found))) : "<byte 0x\(String(found, radix: 16))>"
      throw JSONParseError(offset: index, reason: .invalidEscape("\\" + shown))
    }
    let unit = try readHex4(at: index + 2)
    var scalarValue = UInt32(unit)
    var next = index + 6
    if (0xD800...0xDBFF).contains(unit) {
      let low: UInt16? =
        next + 1 < bytes.count && bytes[next] == UInt8(ascii: "\\")
          && bytes[next + 1] == UInt8(ascii: "u") ? JSONByteScan.hex4(bytes, at: next + 2) : nil
      if let low, (0xDC00...0xDFFF).contains(low) {
        scalarValue = 0x10000 + ((UInt32(unit) - 0xD800) << 10) + (UInt32(low) - 0xDC00)
        next += 6
      } else if takesLoneSurrogates {
        return readLoneSurrogate(at: index)
      } else if next + 1 < bytes.count && bytes[next] == UInt8(ascii: "\\")
        && bytes[next + 1] == UInt8(ascii: "u")
      {
        let low = try readHex4(at: next + 2)
        throw JSONParseError(
          offset: next, reason: .invalidUnicodeEscape("\\u\(hex4(low)) is not a low surrogate"))
      } else {
        throw JSONParseError(
          offset: index,
          reason: .invalidUnicodeEscape("high surrogate \\u\(hex4(unit)) without its pair"))
      }
    } else if (0xDC00...0xDFFF).contains(unit) {
      if takesLoneSurrogates { return readLoneSurrogate(at: index) }
      throw JSONParseError(
        offset: index,
        reason: .invalidUnicodeEscape("low surrogate \\u\(hex4(unit)) without its pair"))
    }
    guard let scalar = Unicode.Scalar(scalarValue) else {
      throw JSONParseError(offset: index, reason: .invalidUnicodeEscape("not a unicode scalar"))
    }
    UTF8.encode(scalar) { scratch.append($0) }
    return next
  }

  /// A surrogate's escape at `index` without its pair: U+FFFD in `scratch`, noted in
  /// `loneSurrogates`; returns the offset after the escape.
  private mutating func readLoneSurrogate(at index: Int) -> Int {
    loneSurrogates.append((decoded: scratch.count, escape: index))
    scratch.append(contentsOf: [0xEF, 0xBF, 0xBD])
    return index + 6
  }

  private func readHex4(at start: Int) throws(JSONParseError) -> UInt16 {
    guard let value = JSONByteScan.hex4(bytes, at: start) else {
      throw JSONParseError(
        offset: start - 2, reason: .invalidUnicodeEscape("expected 4 hex digits"))
    }
    return value
  }
}
