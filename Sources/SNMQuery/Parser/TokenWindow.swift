/// The tokens the parser sees: one statement's at a time, lexed as the parser reaches them.
///
/// ```swift
/// var window = TokenWindow(source: source)   // the first statement's tokens
/// window[0]                                  // its first token
/// window.reach(position)                     // past its end: the next statement's tokens
/// ```
/// Positions are indexes in the whole script's token sequence, so `Parser.cursorToken` and
/// statement ranges mean the same as with every token at hand. The window holds the tokens up to
/// and including a statement end (a newline outside brackets, `;`, or `.endOfFile`), and the one
/// token before it; reading past its end gives that statement end, so a look-ahead never leaves
/// the statement. A script's memory for tokens is bounded by its longest statement.
struct TokenWindow {
  private var lexer: Lexer
  /// The position of `lexer.tokens[0]`.
  private var base = 0
  /// The token at `base - 1` (the end of the statement before), if any.
  private var previous: Token?

  /// A window that lexes `source` one statement at a time, from `offset` (a statement's end:
  /// tokens keep their offsets in the whole source, so diagnostics name their lines).
  init(source: Source, from offset: Int = 0) {
    lexer = Lexer(bytes: source.bytes, reserving: false)
    if offset > 0 {
      // The flags the whole script's lexer would give the next token there.
      let start = min(offset, source.bytes.count)
      let before = source.bytes[start - 1]
      lexer.index = start
      lexer.lineStart = before == UInt8(ascii: "\n")
      lexer.afterSpace =
        lexer.lineStart || before == UInt8(ascii: " ") || before == UInt8(ascii: "\t")
    }
    lexer.lexStatement()
  }

  /// Every token already lexed (completion's single line), ending with `.endOfFile`.
  init(tokens: [Token]) {
    lexer = Lexer(bytes: [], reserving: false)
    lexer.run()
    if !tokens.isEmpty { lexer.tokens = tokens }
  }

  @inline(__always) subscript(position: Int) -> Token {
    let local = position &- base
    let tokens = lexer.buffer
    let count = tokens.count
    // The parser reads inside the window almost always: that case first, one compare (which is
    // the buffer's own bounds check: its unchecked read).
    if UInt(bitPattern: local) < UInt(bitPattern: count) { return tokens.base[local] }
    if local < 0, let previous { return previous }
    return tokens[min(max(local, 0), count - 1)]
  }

  /// Makes `position` readable: once the parser steps past the window's last token (a statement
  /// end), the next statement's tokens replace the window's.
  mutating func reach(_ position: Int) {
    let count = lexer.buffer.count
    guard position >= base + count, !lexer.isFinished else { return }
    previous = lexer.buffer.last
    base += count
    lexer.buffer.removeAll()
    lexer.lexStatement()
  }
}
