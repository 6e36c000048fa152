extension Lexer {
  /// Brackets, separators and operators in symbol form; anything else is `.invalid`.
  mutating func lexPunctuation(_ byte: UInt8) {
    let start = index
    let next = peek(1)
    var length = 1
    let kind: TokenKind
    switch byte {
    case UInt8(ascii: "("):
      kind = .leftParen
      depth += 1
    case UInt8(ascii: "["):
      kind = .leftBracket
      depth += 1
    case UInt8(ascii: "{"):
      kind = .leftBrace
      depth += 1
    case UInt8(ascii: ")"): kind = .rightParen
    case UInt8(ascii: "]"): kind = .rightBracket
    case UInt8(ascii: "}"): kind = .rightBrace
    case UInt8(ascii: ","): kind = .comma
    case UInt8(ascii: "."):
      if next == UInt8(ascii: "."), peek(2) == UInt8(ascii: ".") {
        kind = .ellipsis
        length = 3
      } else {
        kind = .dot
      }
    case UInt8(ascii: ":"):
      if next == UInt8(ascii: ":") {
        kind = .doubleColon
        length = 2
      } else {
        kind = .colon
      }
    case UInt8(ascii: "*"): kind = .star
    case UInt8(ascii: "!"):
      if next == UInt8(ascii: "=") {
        kind = .notEqual
        length = 2
      } else {
        kind = .bang
      }
    case UInt8(ascii: "="):
      if next == UInt8(ascii: "=") {
        kind = .doubleEqual
        length = 2
      } else {
        kind = .equal
      }
    case UInt8(ascii: "<"):
      if next == UInt8(ascii: "=") {
        kind = .lessEqual
        length = 2
      } else if next == UInt8(ascii: ">") {
        kind = .lessGreater
        length = 2
      } else {
        kind = .less
      }
    case UInt8(ascii: ">"):
      if next == UInt8(ascii: "=") {
        kind = .greaterEqual
        length = 2
      } else {
        kind = .greater
      }
    case UInt8(ascii: "~"):
      if next == UInt8(ascii: "*") {
        kind = .tildeStar
        length = 2
      } else {
        kind = .tilde
      }
    default:
      kind = .invalid
      length = invalidRunLength(from: start)
    }
    emit(kind, from: start, to: start + length)
    if kind == .rightParen || kind == .rightBracket || kind == .rightBrace {
      depth = max(0, depth - 1)
    }
    index = start + length
  }

  /// One ASCII byte, or a whole run of non-ASCII characters and name bytes (an unquoted `이름_1`).
  func invalidRunLength(from start: Int) -> Int {
    guard bytes[start] >= 0x80 else { return 1 }
    var end = start + 1
    while end < bytes.count && (bytes[end] >= 0x80 || isNameByte(bytes[end])) { end += 1 }
    return end - start
  }
}
