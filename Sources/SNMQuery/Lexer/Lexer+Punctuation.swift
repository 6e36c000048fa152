extension Lexer {
  /// The length of an invalid token at `start` (a byte the language does not use): one ASCII
  /// byte, or a whole run of non-ASCII characters and name bytes (an unquoted `이름_1`).
  static func invalidRunLength(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
    guard bytes[start] >= 0x80 else { return 1 }
    var end = start &+ 1
    while end < bytes.count && (bytes[end] >= 0x80 || isNameByte(bytes[end])) { end &+= 1 }
    return end &- start
  }
}
