/// What each byte is to the lexer, one load away: the path a token starting with it takes
/// (`kind(of:)`: the lexer's one dispatch is a switch over it, a jump through a table), and
/// (`table`) whether it continues a name (`nameByte`, as `isNameByte`) and whether a word that
/// ends at it needs a closer look (`wordStop`). Both in one allocation, the kinds just before
/// `table` (one register holds both for the lexer's loop), made once and never freed (`shared`);
/// read without a bounds check, as a byte indexes all 256 entries.
///
/// ```swift
/// let classes = ByteClass.shared
/// classes.kind(of: UInt8(ascii: "w"))    // .letter
/// classes.nameEnd(in: bytes, from: 0)    // the end of the name at 0
/// ```
struct ByteClass: @unchecked Sendable {
  static let shared = ByteClass()
  /// Each byte's bits (`nameByte`, `wordStop`); its `ByteKind` is 256 bytes before.
  let table: UnsafePointer<UInt8>

  /// The bit of a byte a word's path looks at more closely when it ends a name: `-` (eight name
  /// bytes before it may be a UUID's first part) and every byte from 0x80 (a name with non-ASCII
  /// letters).
  @inline(__always) static var wordStop: UInt8 { 0x40 }
  /// The bit of a byte that continues a name: `[A-Za-z0-9_$]`.
  @inline(__always) static var nameByte: UInt8 { 0x80 }

  init() {
    let memory = UnsafeMutablePointer<UInt8>.allocate(capacity: 512)
    for value in 0..<256 {
      let byte = UInt8(value)
      memory[value] = ByteKind(byte).rawValue
      memory[256 + value] =
        (isNameByte(byte) ? ByteClass.nameByte : 0)
        | (byte == UInt8(ascii: "-") || byte >= 0x80 ? ByteClass.wordStop : 0)
    }
    table = UnsafePointer(memory + 256)
  }

  /// The path of a token that starts with `byte`.
  @inline(__always) func kind(of byte: UInt8) -> ByteKind {
    UnsafeRawPointer(table).load(fromByteOffset: Int(byte) &- 256, as: ByteKind.self)
  }

  /// The end of the name bytes from `start` (`start` itself when there are none): four bytes a
  /// step while four are left (one bounds check for four), then one at a time.
  @inline(__always) func nameEnd(in bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
    let count = bytes.count
    var end = start
    while end &+ 4 <= count {
      if !isName(bytes[end]) { return end }
      if !isName(bytes[end &+ 1]) { return end &+ 1 }
      if !isName(bytes[end &+ 2]) { return end &+ 2 }
      if !isName(bytes[end &+ 3]) { return end &+ 3 }
      end &+= 4
    }
    while end < count && isName(bytes[end]) { end &+= 1 }
    return end
  }

  /// Whether `byte` continues a name (`isNameByte`): its entry's sign bit.
  @inline(__always) func isName(_ byte: UInt8) -> Bool {
    Int8(bitPattern: table[Int(byte)]) < 0
  }
}

/// The path of a token that starts with a given byte (`ByteClass.kinds`). Every bracket,
/// separator and operator is a case of its own, so its token is known at the dispatch. A switch
/// over all the cases is a jump through a table without a bounds check: a value that is not a
/// case cannot be in a `ByteKind`.
enum ByteKind: UInt8 {
  /// A byte the lexer's methods take one by one: `-`, `\`, `$`, `_`.
  case rare
  /// Space, tab, carriage return, vertical tab, form feed.
  case space
  case newline
  /// `a`-`z`, `A`-`Z`: a word (or a UUID, from `a`-`f`, `A`-`F`: the word's path looks for its
  /// first dash after the name's eight bytes). A word that starts with `_` is `rare`.
  case letter
  case digit
  case singleQuote, doubleQuote
  case semicolon
  /// `#`: a comment to the end of the line.
  case comment
  case leftParen, rightParen, leftBracket, rightBracket, leftBrace, rightBrace
  case comma, star, dot, colon, bang, equal, less, greater, tilde
  /// Every byte the language does not use (`/`, `@`, control bytes, a byte from 0x80): an
  /// invalid token.
  case other

  init(_ byte: UInt8) {
    switch byte {
    case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\r"), 0x0B, 0x0C: self = .space
    case UInt8(ascii: "\n"): self = .newline
    case UInt8(ascii: "#"): self = .comment
    case UInt8(ascii: ";"): self = .semicolon
    case UInt8(ascii: "-"), UInt8(ascii: "\\"), UInt8(ascii: "$"), UInt8(ascii: "_"): self = .rare
    case UInt8(ascii: "'"): self = .singleQuote
    case UInt8(ascii: "\""): self = .doubleQuote
    case UInt8(ascii: "0")...UInt8(ascii: "9"): self = .digit
    case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"):
      self = .letter
    case UInt8(ascii: "("): self = .leftParen
    case UInt8(ascii: ")"): self = .rightParen
    case UInt8(ascii: "["): self = .leftBracket
    case UInt8(ascii: "]"): self = .rightBracket
    case UInt8(ascii: "{"): self = .leftBrace
    case UInt8(ascii: "}"): self = .rightBrace
    case UInt8(ascii: ","): self = .comma
    case UInt8(ascii: "*"): self = .star
    case UInt8(ascii: "."): self = .dot
    case UInt8(ascii: ":"): self = .colon
    case UInt8(ascii: "!"): self = .bang
    case UInt8(ascii: "="): self = .equal
    case UInt8(ascii: "<"): self = .less
    case UInt8(ascii: ">"): self = .greater
    case UInt8(ascii: "~"): self = .tilde
    default: self = .other
    }
  }
}
