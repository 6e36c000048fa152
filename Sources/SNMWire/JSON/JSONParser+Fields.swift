extension JSONParser {
  /// Hands each member value of the object at `offset` to `visit` as text (see
  /// ``JSONFieldKind``), without building the object; leaves `offset` just past it. `scratch`
  /// (compact) holds the text of nested values. `key`, when given, is told each member's name.
  /// For bytes already validated.
  ///
  /// - Throws: ``JSONParseError`` where the bytes stop being a JSON object.
  mutating func visitMembers(
    scratch: JSONTextBuffer, key: ((String) -> Void)? = nil,
    _ visit: (JSONFieldKind, UnsafeBufferPointer<UInt8>) -> Void
  ) throws(JSONParseError) {
    guard try enterObject() else { return }
    while true {
      if let key {
        key(try readString(reusing: nil))
        skipWhitespace()
        guard offset < bytes.count && bytes[offset] == UInt8(ascii: ":") else {
          throw expected("':' after an object key")
        }
        offset += 1
        skipWhitespace()
      } else {
        try skipKey()
      }
      guard offset < bytes.count else { throw expected("a JSON value") }
      let start = offset
      switch bytes[offset] {
      case UInt8(ascii: "\""):
        try visitString(visit)
      case UInt8(ascii: "{"), UInt8(ascii: "["):
        scratch.count = 0
        try JSONRowWriter.copyValue(&self, into: scratch, indent: nil, depth: 0, around: 1)
        visit(.nested, scratch.written)
      case UInt8(ascii: "n"):
        _ = try consumeWord("null")
        visit(.null, UnsafeBufferPointer(rebasing: bytes[start..<start]))
      case UInt8(ascii: "t"), UInt8(ascii: "f"):
        _ = try consumeWord(bytes[offset] == UInt8(ascii: "t") ? "true" : "false")
        visit(.bool, UnsafeBufferPointer(rebasing: bytes[start..<offset]))
      default:
        guard let end = JSONNumber.scan(bytes, from: start) else {
          throw JSONParseError(offset: start, reason: .invalidNumber)
        }
        offset = end
        visit(.number, UnsafeBufferPointer(rebasing: bytes[start..<end]))
      }
      guard try nextMember() else { return }
    }
  }

  /// Steps over the `{` that starts an object at `offset` (whitespace before it allowed) and the
  /// whitespace after it; false (having stepped over its `}` too) when the object is empty.
  @inline(__always)
  mutating func enterObject() throws(JSONParseError) -> Bool {
    skipWhitespace()
    guard offset < bytes.count && bytes[offset] == UInt8(ascii: "{") else {
      throw expected("'{' to start an object")
    }
    offset += 1
    skipWhitespace()
    if offset < bytes.count && bytes[offset] == UInt8(ascii: "}") {
      offset += 1
      return false
    }
    return true
  }

  /// After a member's value: steps over the `,` and the whitespace to the next member (true), or
  /// over the object's closing `}` (false).
  @inline(__always)
  mutating func nextMember() throws(JSONParseError) -> Bool {
    skipSpaceBetweenTokens()
    let byte = offset < bytes.count ? bytes[offset] : 0
    offset += 1
    if byte == UInt8(ascii: "}") { return false }
    guard byte == UInt8(ascii: ",") else {
      offset -= 1
      throw expected("',' or '}' after an object member")
    }
    skipSpaceBetweenTokens()
    return true
  }

  /// ``skipWhitespace()``, with no call when there is none (PostgREST writes rows without it).
  @inline(__always)
  mutating func skipSpaceBetweenTokens() {
    if offset < bytes.count && bytes[offset] <= 0x20 { skipWhitespace() }
  }

  /// Steps over `"key":` and the whitespace after it.
  @inline(__always)
  mutating func skipKey() throws(JSONParseError) {
    guard offset < bytes.count && bytes[offset] == UInt8(ascii: "\"") else {
      throw expected("'\"' to start an object key")
    }
    let quote = offset
    var index = offset + 1
    while index < bytes.count {
      // Eight bytes at a time to a quote or a backslash.
      while index + 8 <= bytes.count {
        let word = ByteWord.load(bytes, at: index)
        let flagged = ByteWord.equal(0x22, in: word) | ByteWord.equal(0x5C, in: word)
        if flagged == 0 {
          index += 8
          continue
        }
        index += flagged.trailingZeroBitCount >> 3
        break
      }
      guard index < bytes.count, bytes[index] != UInt8(ascii: "\"") else { break }
      index += bytes[index] == UInt8(ascii: "\\") ? 2 : 1
    }
    guard index < bytes.count else {
      offset = bytes.count
      throw expected("'\"' to close the string that starts at byte \(quote)")
    }
    offset = index + 1
    skipSpaceBetweenTokens()
    guard offset < bytes.count && bytes[offset] == UInt8(ascii: ":") else {
      throw expected("':' after an object key")
    }
    offset += 1
    skipSpaceBetweenTokens()
  }

  /// A string's decoded bytes: the raw run when it has no escapes, else decoded.
  private mutating func visitString(_ visit: (JSONFieldKind, UnsafeBufferPointer<UInt8>) -> Void)
    throws(JSONParseError)
  {
    if let end = plainStringEnd() {
      visit(.string, UnsafeBufferPointer(rebasing: bytes[offset + 1..<end]))
      offset = end + 1
      return
    }
    var text = try readString(reusing: nil)
    text.withUTF8 { visit(.string, $0) }
  }

  /// The index of the closing quote of the string at `offset` when it holds no escape and no
  /// control character, C1 (`C2 80`...`C2 9F`) included (its bytes are then its text, and what the
  /// writer writes), else nil.
  @inline(__always)
  func plainStringEnd() -> Int? {
    var index = offset + 1
    let count = bytes.count
    while index < count {
      // Eight bytes at a time up to a quote, a backslash, a control character or 0xC2 (the lead
      // byte of the C1 controls); other bytes above 0x7F go by with the rest.
      while index + 8 <= count {
        let word = ByteWord.load(bytes, at: index)
        let flagged =
          ByteWord.below(0x20, in: word) | ByteWord.equal(0x22, in: word)
          | ByteWord.equal(0x5C, in: word) | ByteWord.equal(0xC2, in: word)
        if flagged == 0 {
          index += 8
          continue
        }
        // The lowest flag is exact (a borrow flags only bytes above a match).
        index += flagged.trailingZeroBitCount >> 3
        break
      }
      guard index < count else { return nil }
      let byte = bytes[index]
      if byte == UInt8(ascii: "\"") { return index }
      if byte == UInt8(ascii: "\\") || byte < 0x20 { return nil }
      if byte == 0xC2 && index + 1 < count && (0x80...0x9F).contains(bytes[index + 1]) {
        return nil
      }
      index += 1
    }
    return nil
  }

  /// Steps over `word` (`true`, `false`, `null`) at `offset`; its bytes, or throws.
  mutating func consumeWord(_ word: StaticString) throws(JSONParseError)
    -> UnsafeBufferPointer<UInt8>
  {
    let text = UnsafeBufferPointer(start: word.utf8Start, count: word.utf8CodeUnitCount)
    guard offset + text.count <= bytes.count,
      UnsafeBufferPointer(rebasing: bytes[offset..<offset + text.count]).elementsEqual(text)
    else { throw expected("'\(word)'") }
    offset += text.count
    return text
  }
}
