/// Turns a `Source` into tokens. Never throws: malformed input becomes error tokens
/// (`.invalid`, `.unterminatedString`, `.malformedNumber`) that the parser reports.
///
/// ```swift
/// let stream = Lexer.tokenize(Source(text: "from t select *"))
/// stream.tokens.map(\.kind)  // [.word, .word, .word, .star, .endOfFile]
/// ```
/// A newline ends a statement except inside `(...)`, `[...]`, `{...}` or after a trailing `\`;
/// `;` always ends one. Comments run from `#` or `--` to the end of the line.
///
/// `lexStatement()` lexes one statement at a time (the parser's `TokenWindow`), so a long script
/// never holds more tokens than its longest statement has.
public struct Lexer {
  let bytes: [UInt8]
  let keywords = KeywordTable.shared
  var index = 0
  var depth = 0
  /// The tokens lexed so far (`TokenBuffer`: an append is a store and a count).
  let buffer: TokenBuffer
  var lineStart = true
  var afterSpace = false
  var continuationAtEnd = false
  /// A statement end (`.newline`, `.semicolon`) was emitted since `lexStatement()` began.
  var endedStatement = false
  /// `.endOfFile` was emitted: nothing more to lex.
  private(set) var isFinished = false

  /// - Parameter reserving: room for the tokens of the whole source (`run()`); a lexer that goes a
  ///   statement at a time starts with room for 64 and grows to its longest statement.
  init(bytes: [UInt8], reserving: Bool = true) {
    self.bytes = bytes
    buffer = TokenBuffer(capacity: reserving ? bytes.count / 3 + 2 : 64)
  }

  /// The tokens lexed so far, as an array.
  var tokens: [Token] {
    get { buffer.array }
    nonmutating set { buffer.replace(with: newValue) }
  }

  /// Tokenizes the whole source.
  public static func tokenize(_ source: Source) -> TokenStream {
    var lexer = Lexer(bytes: source.bytes)
    lexer.run()
    return TokenStream(
      tokens: lexer.tokens, endsInsideBrackets: lexer.depth > 0,
      endsWithContinuation: lexer.continuationAtEnd)
  }

  /// Lexes the whole source.
  mutating func run() {
    while !isFinished { lexStatement() }
  }

  /// Appends the tokens up to and including the next statement end outside brackets (a newline or
  /// `;`), or up to `.endOfFile`.
  mutating func lexStatement() {
    let count = bytes.count
    endedStatement = false
    while index < count && !endedStatement {
      let byte = bytes[index]
      switch byte {
      case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\r"), 0x0B, 0x0C:
        index += 1
        afterSpace = true
      case UInt8(ascii: "\n"):
        if depth == 0 { emit(.newline, from: index, to: index + 1) }
        index += 1
        lineStart = true
        afterSpace = true
      case UInt8(ascii: "#"):
        skipComment()
      case UInt8(ascii: "-"):
        lexDash()
      case UInt8(ascii: "\\"):
        lexBackslash()
      case UInt8(ascii: ";"):
        depth = 0
        emit(.semicolon, from: index, to: index + 1)
        index += 1
      case UInt8(ascii: "'"):
        lexSingleQuoted()
      case UInt8(ascii: "\""):
        lexDoubleQuoted()
      case UInt8(ascii: "$"):
        lexVariable()
      case UInt8(ascii: "0")...UInt8(ascii: "9"):
        lexNumeric()
      case UInt8(ascii: "a")...UInt8(ascii: "f"), UInt8(ascii: "A")...UInt8(ascii: "F"):
        if let end = uuidEnd(at: index) {
          emit(.uuid, from: index, to: end)
          index = end
        } else {
          lexWord()
        }
      case UInt8(ascii: "g")...UInt8(ascii: "z"), UInt8(ascii: "G")...UInt8(ascii: "Z"),
        UInt8(ascii: "_"):
        lexWord()
      default:
        lexPunctuation(byte)
      }
    }
    if index >= count && !endedStatement && !isFinished {
      emit(.endOfFile, from: count, to: count)
      isFinished = true
    }
  }

  /// Appends a token; `keyword` is the keyword a `.word` spells (`lexWord()` looks it up).
  mutating func emit(
    _ kind: TokenKind, from start: Int, to end: Int, flags extra: Token.Flags = [],
    keyword: Keyword? = nil
  ) {
    var flags = extra
    if lineStart { flags.insert(.atLineStart) }
    if afterSpace { flags.insert(.afterSpace) }
    if depth > 0 { flags.insert(.insideBrackets) }
    buffer.append(Token(kind: kind, keyword: keyword, start: start, end: end, flags: flags))
    lineStart = kind == .newline
    afterSpace = false
    if kind == .newline || kind == .semicolon { endedStatement = true }
    if kind != .endOfFile { continuationAtEnd = false }
  }

  mutating func skipComment() {
    while index < bytes.count && bytes[index] != UInt8(ascii: "\n") { index += 1 }
    afterSpace = true
  }

  mutating func lexDash() {
    let next = peek(1)
    if next == UInt8(ascii: "-") {
      skipComment()
    } else if next == UInt8(ascii: ">") {
      if peek(2) == UInt8(ascii: ">") {
        emit(.doubleArrow, from: index, to: index + 3)
        index += 3
      } else {
        emit(.arrow, from: index, to: index + 2)
        index += 2
      }
    } else if let next, isDigit(next) {
      lexNumber()
    } else {
      emit(.invalid, from: index, to: index + 1)
      index += 1
    }
  }

  /// `\` + letters (and a `+`, as in `\d+`), or `\?`, is a psql-style command; `\` before the end
  /// of the line continues the statement.
  mutating func lexBackslash() {
    var cursor = index + 1
    while cursor < bytes.count,
      bytes[cursor] == UInt8(ascii: " ") || bytes[cursor] == 9
        || bytes[cursor] == 13
    {
      cursor += 1
    }
    if cursor >= bytes.count {
      index = cursor
      afterSpace = true
      continuationAtEnd = true
      return
    }
    if bytes[cursor] == UInt8(ascii: "\n") {
      index = cursor + 1
      afterSpace = true
      continuationAtEnd = index >= bytes.count
      return
    }
    var end = index + 1
    if bytes[end] == UInt8(ascii: "?") {
      end += 1
    } else {
      while end < bytes.count && isLetter(bytes[end]) { end += 1 }
      if end > index + 1 && end < bytes.count && bytes[end] == UInt8(ascii: "+") { end += 1 }
    }
    if end > index + 1 {
      emit(.backslashCommand, from: index, to: end)
    } else {
      end = index + 1
      emit(.invalid, from: index, to: end)
    }
    index = end
  }

  /// A word: its end found eight bytes at a time (`NameWord`), then, when it is no longer than the longest keyword, packed lowercase
  /// (`PackedWord`) and looked up.
  mutating func lexWord() {
    let start = index
    let count = bytes.count
    let longest = keywords.longestWord
    let (end, word) = bytes.withUnsafeBufferPointer { buffer -> (Int, PackedWord?) in
      let end = NameWord.end(in: buffer, from: start)
      guard end - start <= longest else { return (end, nil) }
      return (end, PackedWord(lowercasingASCII: buffer, from: start, to: end))
    }
    index = end
    if index < count && bytes[index] >= 0x80 {
      // An unquoted name with non-ASCII letters: one invalid token, so the message can say "quote it".
      while index < count && (bytes[index] >= 0x80 || isNameByte(bytes[index])) { index += 1 }
      emit(.invalid, from: start, to: index)
      return
    }
    var keyword: Keyword?
    if let word { keyword = keywords.find(word) }
    emit(.word, from: start, to: end, keyword: keyword)
  }

  func peek(_ offset: Int) -> UInt8? {
    let position = index + offset
    return position < bytes.count ? bytes[position] : nil
  }
}

@inline(__always) func isDigit(_ byte: UInt8) -> Bool {
  byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
}

@inline(__always) func isLetter(_ byte: UInt8) -> Bool {
  (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z")
}

@inline(__always) func isHexDigit(_ byte: UInt8) -> Bool {
  isDigit(byte) || ((byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "f"))
}

/// `[A-Za-z0-9_$]`: the bytes that continue a name. One bit a byte in two masks (bytes 0-63 and
/// 64-127): a shift and a test instead of four range compares, for every byte of every word.
@inline(__always) func isNameByte(_ byte: UInt8) -> Bool {
  // `$` (36) and `0`-`9` (48-57); `A`-`Z` (65-90), `_` (95) and `a`-`z` (97-122), less 64.
  let low: UInt64 = (1 << 36) | (0x3FF << 48)
  let high: UInt64 = (0x3FF_FFFF << 1) | (1 << 31) | (0x3FF_FFFF << 33)
  let mask = byte < 64 ? low : (byte < 128 ? high : 0)
  return (mask >> UInt64(byte & 63)) & 1 != 0
}
