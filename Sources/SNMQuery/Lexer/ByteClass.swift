/// What each byte is to the lexer, one load away: the path a token starting with it takes (the
/// low four bits), whether it continues a name (`nameByte`, as `isNameByte`) and whether a word
/// that ends at it needs a closer look (`wordStop`). Made once and
/// never freed (`shared`); read without a bounds check, as a byte indexes all 256 entries.
///
/// ```swift
/// let classes = ByteClass.shared
/// classes.table[Int(UInt8(ascii: "w"))] & ByteClass.kindMask   // ByteClass.word
/// classes.nameEnd(in: bytes, from: 0)                          // the end of the name at 0
/// ```
struct ByteClass: @unchecked Sendable {
  static let shared = ByteClass()
  let table: UnsafePointer<UInt8>

  /// A byte the lexer's methods take one by one: `-`, `\`, `$`.
  @inline(__always) static var rare: UInt8 { 0 }
  /// Space, tab, carriage return, vertical tab, form feed.
  @inline(__always) static var space: UInt8 { 1 }
  @inline(__always) static var newline: UInt8 { 2 }
  /// `a`-`z`, `A`-`Z`, `_`: a word (or a UUID, from `a`-`f`, `A`-`F`: the word's path looks
  /// for its first dash after the name's eight bytes).
  @inline(__always) static var word: UInt8 { 3 }
  @inline(__always) static var digit: UInt8 { 4 }
  /// `'` and `"`.
  @inline(__always) static var quote: UInt8 { 5 }
  /// Brackets, separators, operators, and every byte the language does not use.
  @inline(__always) static var punctuation: UInt8 { 6 }
  @inline(__always) static var semicolon: UInt8 { 7 }
  /// `#`: a comment to the end of the line.
  @inline(__always) static var comment: UInt8 { 8 }
  @inline(__always) static var kindMask: UInt8 { 0x0F }
  /// The bit of a byte a word's path looks at more closely when it ends a name: `-` (eight name
  /// bytes before it may be a UUID's first part) and every byte from 0x80 (a name with non-ASCII
  /// letters).
  @inline(__always) static var wordStop: UInt8 { 0x40 }
  /// The bit of a byte that continues a name: `[A-Za-z0-9_$]`.
  @inline(__always) static var nameByte: UInt8 { 0x80 }

  init() {
    let table = UnsafeMutablePointer<UInt8>.allocate(capacity: 256)
    for value in 0..<256 {
      let byte = UInt8(value)
      table[value] =
        ByteClass.kind(of: byte) | (isNameByte(byte) ? ByteClass.nameByte : 0)
        | (byte == UInt8(ascii: "-") || byte >= 0x80 ? ByteClass.wordStop : 0)
    }
    self.table = UnsafePointer(table)
  }

  private static func kind(of byte: UInt8) -> UInt8 {
    switch byte {
    case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\r"), 0x0B, 0x0C: space
    case UInt8(ascii: "\n"): newline
    case UInt8(ascii: "#"): comment
    case UInt8(ascii: ";"): semicolon
    case UInt8(ascii: "-"), UInt8(ascii: "\\"), UInt8(ascii: "$"): rare
    case UInt8(ascii: "'"), UInt8(ascii: "\""): quote
    case UInt8(ascii: "0")...UInt8(ascii: "9"): digit
    case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
      UInt8(ascii: "_"):
      word
    default: punctuation
    }
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
