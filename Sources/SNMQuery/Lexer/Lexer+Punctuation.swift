extension Lexer {
  /// The bracket, separator or operator at `start`, and its length in bytes; `.invalid` for a
  /// byte the language does not use (with the run of non-ASCII characters and name bytes after
  /// it, when the byte is not ASCII: an unquoted `이름_1`).
  @inline(__always)
  static func punctuation(_ bytes: UnsafeBufferPointer<UInt8>, at start: Int) -> (TokenKind, Int) {
    let next = start &+ 1 < bytes.count ? bytes[start &+ 1] : 0
    switch bytes[start] {
    case UInt8(ascii: "("): return (.leftParen, 1)
    case UInt8(ascii: "["): return (.leftBracket, 1)
    case UInt8(ascii: "{"): return (.leftBrace, 1)
    case UInt8(ascii: ")"): return (.rightParen, 1)
    case UInt8(ascii: "]"): return (.rightBracket, 1)
    case UInt8(ascii: "}"): return (.rightBrace, 1)
    case UInt8(ascii: ","): return (.comma, 1)
    case UInt8(ascii: "*"): return (.star, 1)
    case UInt8(ascii: "."):
      let third = start &+ 2 < bytes.count ? bytes[start &+ 2] : 0
      return next == UInt8(ascii: ".") && third == UInt8(ascii: ".") ? (.ellipsis, 3) : (.dot, 1)
    case UInt8(ascii: ":"): return next == UInt8(ascii: ":") ? (.doubleColon, 2) : (.colon, 1)
    case UInt8(ascii: "!"): return next == UInt8(ascii: "=") ? (.notEqual, 2) : (.bang, 1)
    case UInt8(ascii: "="): return next == UInt8(ascii: "=") ? (.doubleEqual, 2) : (.equal, 1)
    case UInt8(ascii: "<"):
      if next == UInt8(ascii: "=") { return (.lessEqual, 2) }
      return next == UInt8(ascii: ">") ? (.lessGreater, 2) : (.less, 1)
    case UInt8(ascii: ">"): return next == UInt8(ascii: "=") ? (.greaterEqual, 2) : (.greater, 1)
    case UInt8(ascii: "~"): return next == UInt8(ascii: "*") ? (.tildeStar, 2) : (.tilde, 1)
    default: return (.invalid, invalidRunLength(bytes, from: start))
    }
  }

  /// One ASCII byte, or a whole run of non-ASCII characters and name bytes (an unquoted `이름_1`).
  static func invalidRunLength(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
    guard bytes[start] >= 0x80 else { return 1 }
    var end = start &+ 1
    while end < bytes.count && (bytes[end] >= 0x80 || isNameByte(bytes[end])) { end &+= 1 }
    return end &- start
  }
}
