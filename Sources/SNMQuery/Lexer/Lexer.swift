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
  let classes = ByteClass.shared
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
    endedStatement = false
    let bytes = self.bytes
    bytes.withUnsafeBufferPointer { buffer in
      while lexCommon(in: buffer) { lexRare(buffer[index]) }
    }
    if index >= bytes.count && !endedStatement && !isFinished {
      emit(.endOfFile, from: bytes.count, to: bytes.count)
      isFinished = true
    }
  }

  /// The common tokens from `index` on, in one pass: each token's first byte picks its path by
  /// one load from `ByteClass.table`, without a bounds check, and a space before a token is
  /// passed over before that load. The lexer's state and the token buffer's end are kept in
  /// locals while it goes. Returns true, with `index` at it, at a token it leaves to the lexer's
  /// methods (`lexRare`: `-`, `\\`, `$`, UUIDs, dates, names with non-ASCII letters,
  /// unterminated strings); false at the statement's end or the source's.
  private mutating func lexCommon(in bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    let count = bytes.count
    let classes = self.classes
    let keywords = self.keywords
    let buffer = self.buffer
    var tokens = buffer.base
    let first = buffer.count
    var used = first
    var room = buffer.capacity
    var cursor = index
    var depth = self.depth
    let inside = Token.Flags.insideBrackets.rawValue
    // `Token.Flags` of the next token: `.atLineStart`, `.afterSpace`; and `.insideBrackets`.
    var pending: UInt8 = (lineStart ? 1 : 0) | (afterSpace ? 2 : 0)
    var brackets: UInt8 = depth > 0 ? inside : 0
    var rare = false

    while cursor < count {
      var byte = bytes[cursor]
      if byte == UInt8(ascii: " ") {
        pending |= Token.Flags.afterSpace.rawValue
        cursor &+= 1
        if cursor == count { break }
        byte = bytes[cursor]
      }
      let start = cursor
      var kind = TokenKind.invalid
      var keyword: Keyword? = nil
      var flags = pending | brackets
      switch classes.table[Int(byte)] & ByteClass.kindMask {
      case ByteClass.word, ByteClass.hexWord:
        // `a`-`f` and `A`-`F` are 1 to 6 in their low five bits; `g`-`z`, `G`-`Z` and `_` more.
        if byte & 0x1F < 7 && start &+ 36 <= count
          && bytes[start &+ 8] == UInt8(ascii: "-")
        {
          rare = true  // perhaps a UUID
        } else {
          cursor = classes.nameEnd(in: bytes, from: start &+ 1)
          if cursor < count && bytes[cursor] >= 0x80 {
            rare = true  // a name with non-ASCII letters
          }
        }
        if rare { break }
        kind = .word
        keyword = keywords.find(in: bytes, from: start, to: cursor)
      case ByteClass.punctuation:
        let (token, length) = Lexer.punctuation(bytes, at: start)
        kind = token
        cursor = start &+ length
        if token == .leftParen || token == .leftBracket || token == .leftBrace {
          depth &+= 1
          brackets = inside
          flags |= inside
        } else if token == .rightParen || token == .rightBracket || token == .rightBrace {
          depth = max(0, depth &- 1)
          brackets = depth > 0 ? inside : 0
        }
      case ByteClass.quote:
        let (end, extra, closed) = Lexer.scanQuoted(bytes, from: start &+ 1, quote: byte)
        guard closed else {
          rare = true
          break
        }
        kind = byte == UInt8(ascii: "'") ? .singleQuoted : .doubleQuoted
        flags |= extra.rawValue
        cursor = end &+ 1
      case ByteClass.digit:
        // A UUID or a date: lexNumeric.
        if (start &+ 36 <= count && bytes[start &+ 8] == UInt8(ascii: "-"))
          || (start &+ 4 < count && bytes[start &+ 4] == UInt8(ascii: "-"))
        {
          rare = true
          break
        }
        let (end, malformed) = Lexer.scanNumber(bytes, from: start)
        kind = malformed ? .malformedNumber : .number
        cursor = end
      case ByteClass.space:
        cursor &+= 1
        pending |= Token.Flags.afterSpace.rawValue
        continue
      case ByteClass.comment:
        while cursor < count && bytes[cursor] != UInt8(ascii: "\n") { cursor &+= 1 }
        pending |= Token.Flags.afterSpace.rawValue
        continue
      case ByteClass.newline:
        cursor &+= 1
        if depth > 0 {
          pending = Token.Flags.atLineStart.rawValue | Token.Flags.afterSpace.rawValue
          continue
        }
        kind = .newline
      case ByteClass.semicolon:
        cursor &+= 1
        depth = 0
        brackets = 0
        flags = pending
        kind = .semicolon
      default:
        rare = true
      }
      if rare {
        cursor = start
        break
      }
      if used == room {
        buffer.count = used
        buffer.grow()
        tokens = buffer.base
        room = buffer.capacity
      }
      (tokens + used).initialize(
        to: Token(
          kind: kind, keyword: keyword, start: start, end: cursor,
          flags: Token.Flags(rawValue: flags)))
      used &+= 1
      pending = 0
      if kind == .newline || kind == .semicolon {
        if kind == .newline {
          pending = Token.Flags.atLineStart.rawValue | Token.Flags.afterSpace.rawValue
        }
        endedStatement = true
        break
      }
    }
    buffer.count = used
    index = cursor
    self.depth = depth
    lineStart = pending & Token.Flags.atLineStart.rawValue != 0
    afterSpace = pending & Token.Flags.afterSpace.rawValue != 0
    if used != first { continuationAtEnd = false }
    return rare
  }

  /// A token `lexCommon(in:)` leaves to the lexer's methods, at `index`.
  private mutating func lexRare(_ byte: UInt8) {
    switch byte {
    case UInt8(ascii: "-"):
      lexDash()
    case UInt8(ascii: "\\"):
      lexBackslash()
    case UInt8(ascii: "'"):
      lexSingleQuoted()
    case UInt8(ascii: "\""):
      lexDoubleQuoted()
    case UInt8(ascii: "$"):
      lexVariable()
    case UInt8(ascii: "0")...UInt8(ascii: "9"):
      lexNumeric()
    default:
      if let end = uuidEnd(at: index) {
        emit(.uuid, from: index, to: end)
        index = end
      } else {
        lexWord()
      }
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

  /// A word (`[A-Za-z_][A-Za-z0-9_$]*`) and the keyword it spells, if any; an unquoted name with
  /// non-ASCII letters is one invalid token, so the message can say "quote it".
  mutating func lexWord() {
    let start = index
    let count = bytes.count
    let (end, invalidEnd, keyword) = bytes.withUnsafeBufferPointer {
      buffer -> (Int, Int, Keyword?) in
      let end = classes.nameEnd(in: buffer, from: start)
      if end < count && buffer[end] >= 0x80 {
        return (end, end &+ Lexer.invalidRunLength(buffer, from: end), nil)
      }
      return (end, end, keywords.find(in: buffer, from: start, to: end))
    }
    index = invalidEnd
    if invalidEnd > end {
      emit(.invalid, from: start, to: invalidEnd)
      return
    }
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
