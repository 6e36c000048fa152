/// Decoding quoted tokens: plain ones here, escapes and `${name}` parts in `StringLiteralDecoder`.
extension Parser {
  /// Whether `text` is not empty and all ASCII letters, digits and the characters of `also`
  /// (a topic's `._-:`, a Storage path's `._/-`).
  static func isASCIIWord(_ text: String, also punctuation: String) -> Bool {
    !text.isEmpty
      && text.utf8.allSatisfy { byte in
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
          UInt8(ascii: "0")...UInt8(ascii: "9"):
          true
        default: punctuation.utf8.contains(byte)
        }
      }
  }

  /// A double-quoted name (JSON escapes) or a single-quoted string used as a name or key.
  func decodeQuotedName(_ token: Token) throws(ParseFailure) -> String {
    let literal = try decodeString(token, interpolateBare: false, interpolate: false)
    return literal.constantText ?? ""
  }

  /// The key of an object a quoted token spells: a plain key (no escapes) of up to 16 ASCII bytes
  /// packed from the source, with no String; any other decoded by `decodeQuotedName(_:)`.
  /// `mutating` though it changes nothing, so that the parser is passed by its address: called
  /// on `inout` parser as a `func`, the whole parser (216 bytes) was copied at each key.
  @inline(__always) mutating func objectKey(_ token: Token) throws(ParseFailure) -> ObjectKey {
    if !token.flags.contains(.hasEscapes),
      let (low, high) = TokenTexts.packedASCII(
        SourceRange(start: token.start &+ 1, end: token.end &- 1), in: source)
    {
      return .packed(low: low, high: high, length: token.end &- token.start &- 2)
    }
    return .decoded(try decodeQuotedName(token))
  }

  /// A string literal: `''` in single quotes, JSON escapes in double quotes, and `${name}` parts
  /// (plus bare `$name.field` parts when `interpolateBare`, as in `echo`).
  func decodeString(_ token: Token, interpolateBare: Bool, interpolate: Bool = true)
    throws(ParseFailure)
    -> StringLiteral
  {
    let start = token.start + 1
    if !token.flags.contains(.hasEscapes) && !(interpolate && token.flags.contains(.hasDollar)) {
      return StringLiteral(
        texts.text(of: SourceRange(start: start, end: max(start, token.end - 1)), in: source))
    }
    return try StringLiteralDecoder.decode(
      self, token, interpolateBare: interpolateBare, interpolate: interpolate)
  }
}
