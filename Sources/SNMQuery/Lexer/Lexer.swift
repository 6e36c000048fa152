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
/// `lexStatement()` hands one statement at a time (the parser's `TokenWindow`), lexing several
/// ahead in one pass, so a long script never holds more tokens than a pass's statements have.
public struct Lexer {
  let bytes: [UInt8]
  let keywords = KeywordTable.shared
  let classes = ByteClass.shared
  var index = 0
  /// The brackets open (`TokenBuffer.depth`).
  var depth: Int {
    get { buffer.depth.pointee }
    nonmutating set { buffer.depth.pointee = newValue }
  }
  /// The tokens lexed so far (`TokenBuffer`: an append is a store and a count), the window
  /// `lexStatement()` hands over first.
  let buffer: TokenBuffer
  var lineStart = true
  var afterSpace = false
  var continuationAtEnd = false
  /// `.endOfFile` was lexed (perhaps ahead of the window): nothing more to lex.
  private var lexedAll = false
  /// `.endOfFile` was handed over (`lexStatement()`) or lexed (`run()`): nothing more to lex.
  var isFinished: Bool { lexedAll && !buffer.hasStatementAhead }

  /// - Parameter reserving: room for the tokens of the whole source (`run()`); a lexer that goes a
  ///   statement at a time starts with room for 512 (the statements of one pass ahead,
  ///   `lexAhead()`) and grows to its longest statement.
  init(bytes: [UInt8], reserving: Bool = true) {
    self.bytes = bytes
    buffer = TokenBuffer(capacity: reserving ? bytes.count / 3 + 2 : 512)
  }

  /// The tokens of the window, as an array. Set to none, the window is emptied as
  /// `TokenBuffer.removeAll()` empties it (the statements lexed ahead stay); set to tokens, they
  /// are all the lexer holds.
  var tokens: [Token] {
    get { buffer.array }
    nonmutating set {
      if newValue.isEmpty {
        buffer.removeAll()
      } else {
        buffer.replace(with: newValue)
      }
    }
  }

  /// Tokenizes the whole source.
  public static func tokenize(_ source: Source) -> TokenStream {
    var lexer = Lexer(bytes: source.bytes)
    lexer.run()
    return TokenStream(
      tokens: lexer.tokens, endsInsideBrackets: lexer.depth > 0,
      endsWithContinuation: lexer.continuationAtEnd)
  }

  /// Lexes the whole source (what is left of it), `.endOfFile` last: every token in the window.
  mutating func run() {
    lexing: while true {
      switch lexCommon(recordingEnds: false) {
      case .rare: lexRare(bytes[index])
      case .full: buffer.grow()
      // `.tail` is the unchecked loop's: the checked one goes on to the end.
      case .done, .tail: break lexing
      }
    }
    if !lexedAll {
      emit(.endOfFile, from: bytes.count, to: bytes.count)
      lexedAll = true
    }
    buffer.count = buffer.filled - buffer.base
  }

  /// Sets the window to end at the next statement end outside brackets (a newline or `;`), or at
  /// `.endOfFile`, lexing the statements after the window first when none is lexed ahead. The
  /// window keeps the tokens it holds: `TokenBuffer.removeAll()` before it makes it the next
  /// statement's alone.
  mutating func lexStatement() {
    if buffer.hasStatementAhead {
      buffer.handStatement()
      return
    }
    if lexedAll { return }
    lexAhead()
    buffer.handStatement()
  }

  /// Lexes statements after the window in one pass (its set-up and hand-over once for them all):
  /// up to `TokenBuffer.endsRoom` statement ends, the buffer's room once it holds one statement
  /// end at least (it grows for a statement longer than its room), or the source's end, where
  /// `.endOfFile` ends the last statement. Records each statement's end (`TokenBuffer.ends`).
  private mutating func lexAhead() {
    buffer.restart()
    lexing: while true {
      switch lexCommon(recordingEnds: true) {
      case .rare:
        // A rare token is one token at most: room for one first, or the pass ends before it.
        guard haveRoom() else { break lexing }
        lexRare(bytes[index])
      case .full:
        if buffer.endCount > 0 { break lexing }
        buffer.grow()
      // `.tail` is the unchecked loop's: the checked one goes on to the end.
      case .done, .tail: break lexing
      }
    }
    if index >= bytes.count && !lexedAll && buffer.endCount < TokenBuffer.endsRoom && haveRoom() {
      emit(.endOfFile, from: bytes.count, to: bytes.count)
      buffer.ends[buffer.endCount] = buffer.filled
      buffer.endCount += 1
      lexedAll = true
    }
  }

  /// Whether the buffer has room for one more token in this pass: it grows when it holds no
  /// statement end yet, and a pass that has one ends (its statements are handed over first).
  private func haveRoom() -> Bool {
    guard buffer.filled == buffer.room else { return true }
    if buffer.endCount > 0 { return false }
    buffer.grow()
    return true
  }

  /// Where `lexCommon(in:)` stopped.
  private enum CommonStop {
    /// At the source's end, or with `TokenBuffer.endsRoom` statement ends recorded.
    case done
    /// At a token it leaves to the lexer's methods (`lexRare`).
    case rare
    /// With the token buffer full: it is grown outside the loop, which calls nothing.
    case full
    /// `margin` bytes before the source's end, where the loop that looks ahead unchecked stops.
    case tail
  }

  /// How far before the source's end the unchecked loop stops (`.tail`): a token that starts
  /// before that has every byte its path looks ahead at in the source (a space and the byte
  /// after it, a word's eight from one load, `...`, `::`, `<=`), read with no compare against
  /// the end. The few tokens after it go through the same loop with those compares.
  private static var margin: Int { 16 }

  /// The common tokens from `index` on, in one pass (`lexCommon(in:classes:keywords:state:)`):
  /// stops, with `index` at it, at a token it leaves to the lexer's methods (`lexRare`: `-`,
  /// `\\`, `$`, UUIDs, dates, numbers with an exponent, a leading zero or letters glued on, words
  /// that start with `_`, names with non-ASCII letters, unterminated strings), at a full token
  /// buffer, at the source's end, or, `recordingEnds`, once the statement ends it recorded fill
  /// their room. The source's bytes are read inside it, by a closure that touches no part of the
  /// lexer: handed in by the caller, they were retained and released for each statement.
  private mutating func lexCommon(recordingEnds: Bool) -> CommonStop {
    let buffer = self.buffer
    let first = buffer.filled
    let ends = buffer.ends + buffer.endCount
    var state = CommonState(
      cursor: index, depth: buffer.depth, pending: (lineStart ? 1 : 0) | (afterSpace ? 2 : 0),
      next: first, room: buffer.room, ends: ends,
      endsRoom: recordingEnds ? buffer.ends + TokenBuffer.endsRoom : nil)
    let classes = self.classes
    let keywords = self.keywords
    // The closure reads no part of the lexer (its state is in `state`): the source's bytes are
    // lent to it as they are, not retained for the call.
    let stop = self.bytes.withUnsafeBufferPointer { bytes in
      // The loop without the look-ahead's bounds checks up to `margin` bytes before the end, then
      // with them.
      let stop = Lexer.lexCommon(
        in: bytes, classes: classes, keywords: keywords, state: &state, checked: false)
      guard stop == .tail else { return stop }
      return Lexer.lexCommon(
        in: bytes, classes: classes, keywords: keywords, state: &state, checked: true)
    }
    buffer.filled = state.next
    buffer.endCount += state.ends - ends
    index = state.cursor
    lineStart = state.pending & Token.Flags.atLineStart.rawValue != 0
    afterSpace = state.pending & Token.Flags.afterSpace.rawValue != 0
    if state.next != first { continuationAtEnd = false }
    return stop
  }

  /// The lexer's state as `lexCommon(in:classes:keywords:state:)` takes it and leaves it: the
  /// next byte, where the count of brackets open is (`TokenBuffer.depth`), the next token's `Token.Flags` (`.atLineStart`,
  /// `.afterSpace`), the next token's place and the end of the buffer's room, the place of the
  /// next statement end's record and the end of their room (nil: none are recorded).
  private struct CommonState {
    var cursor: Int
    let depth: UnsafeMutablePointer<Int>
    var pending: UInt8
    var next: UnsafeMutablePointer<Token>
    let room: UnsafeMutablePointer<Token>
    var ends: UnsafeMutablePointer<UnsafeMutablePointer<Token>>
    let endsRoom: UnsafeMutablePointer<UnsafeMutablePointer<Token>>?
  }

  /// `lexCommon()`'s loop, over the source's bytes lent to it. Each token's first byte picks its
  /// path by one switch over its `ByteKind` (`ByteClass.kind(of:)`, read without a bounds check):
  /// a jump through a table, where a test for a letter and then a switch over fewer kinds took two
  /// steps for every token that is not a word, and a bracket, separator or operator a third (each
  /// is a case of its own now). A space before a token is passed over before that load. The
  /// state is read into locals at its start and written back at its end, each path stores its
  /// token itself, and nothing in the loop is a call (a call made the loop keep its state in
  /// memory). Inlined into the closure that `lexCommon()` lends the bytes to, so `state` is
  /// never in memory either; a function of its own, so that nothing the closure captures is
  /// shared with a local function (which made every access to those a checked one, a call).
  /// Inlined twice: `checked: false` up to `margin` bytes before the source's end, where a
  /// space, a word's load and a two- or three-byte operator's look-ahead compare nothing with
  /// the end (a compare a token, and a word's three instructions), and `checked: true` after.
  @inline(__always)
  private static func lexCommon(
    in bytes: UnsafeBufferPointer<UInt8>, classes: ByteClass, keywords: KeywordTable,
    state: inout CommonState, checked: Bool
  ) -> CommonStop {
    let table = classes.table
    var next = state.next
    let room = state.room
    var cursor = state.cursor
    let depth = state.depth
    let inside = Token.Flags.insideBrackets.rawValue
    // `Token.Flags` of the next token: `.atLineStart`, `.afterSpace`; and `.insideBrackets`.
    // With `.insideBrackets` while a bracket is open: a token keeps it from the one before.
    var pending = state.pending | (depth.pointee > 0 ? inside : 0)
    var stop = CommonStop.done
    var ends = state.ends
    let endsRoom = state.endsRoom

    // A statement end was stored: its record, when they are recorded; whether their room is full.
    @inline(__always) func recordEnd() -> Bool {
      guard let endsRoom else { return false }
      ends.initialize(to: next)
      ends += 1
      return ends == endsRoom
    }

    @inline(__always) func put(
      _ kind: TokenKind, _ start: Int, _ end: Int, _ flags: UInt8, keyword: Keyword? = nil
    ) {
      next.initialize(
        to: Token(
          kind: kind, keyword: keyword, start: start, end: end,
          flags: Token.Flags(rawValue: flags)))
      next += 1
      pending &= inside
    }

    // A bracket that opens, at `cursor`: one more deep.
    @inline(__always) func open(_ kind: TokenKind) {
      depth.pointee &+= 1
      pending |= inside
      put(kind, cursor, cursor &+ 1, pending)
      cursor &+= 1
    }

    // A bracket that closes, at `cursor`: inside the brackets it closes, one less deep after it.
    @inline(__always) func close(_ kind: TokenKind) {
      put(kind, cursor, cursor &+ 1, pending)
      cursor &+= 1
      depth.pointee = max(0, depth.pointee &- 1)
      if depth.pointee == 0 { pending = 0 }
    }

    let count = bytes.count
    // Unchecked, the loop stops `margin` bytes before the source's end (`.tail`): a token that
    // starts before that has its look-ahead in the source.
    let end = checked ? count : count &- Lexer.margin
    // Every token takes a byte at least: while `cursor` is below `limit`, the buffer has room
    // for the next token, so one compare a token asks for the source's end (or the margin's)
    // and the room.
    var limit = min(end, cursor &+ Lexer.tokensLeft(next, room))

    // The token of one byte at `cursor`, or of two where the byte after it is `second`.
    @inline(__always) func single(_ kind: TokenKind) {
      put(kind, cursor, cursor &+ 1, pending)
      cursor &+= 1
    }
    @inline(__always) func pair(_ second: UInt8, _ double: TokenKind, else kind: TokenKind) {
      let length = (!checked || cursor &+ 1 < count) && bytes[cursor &+ 1] == second ? 2 : 1
      put(length == 2 ? double : kind, cursor, cursor &+ length, pending)
      cursor &+= length
    }

    lexing: while true {
      if cursor >= limit {
        if cursor >= end {
          if !checked { stop = .tail }
          break
        }
        let left = Lexer.tokensLeft(next, room)
        if left == 0 {
          stop = .full
          break
        }
        limit = min(end, cursor &+ left)
      }
      var byte = bytes[cursor]
      if byte == UInt8(ascii: " ") {
        pending |= Token.Flags.afterSpace.rawValue
        cursor &+= 1
        if checked && cursor == count { break }
        byte = bytes[cursor]
      }
      let start = cursor
      // Every value of the five bits is a case (those no byte has with `rare`): the switch is a
      // jump through a table with no bounds check. A case that breaks out of it leaves the
      // token to the lexer's methods.
      switch classes.kind(of: byte) {
      case .letter:
        // Up to seven letters and the byte after them, from one load (most words): the first
        // byte that is not a letter is found in the word, and the letters, folded, are the
        // keyword's key. A stop that continues a name (a digit, `_`, `$`), is a `-` or is not
        // ASCII sends the word the longer way below.
        // The name bytes from `start` go at least this far (the letters the load saw).
        var letters = start &+ 1
        if !checked || start &+ 8 <= count {
          let loaded = NameWord.load(bytes, at: start)
          let folded = loaded | PackedWord.folds
          let stops = NameWord.firstNonLetter(loaded, folded: folded)
          if stops != 0 {
            let shift = UInt64(truncatingIfNeeded: stops.trailingZeroBitCount) & 0x38
            let stop = UInt8(truncatingIfNeeded: loaded &>> shift)
            letters = start &+ Int(truncatingIfNeeded: shift &>> 3)
            if table[Int(stop)] & (ByteClass.nameByte | ByteClass.wordStop) == 0 {
              put(
                .word, start, letters, pending,
                keyword: keywords.find(short: folded & ~(UInt64.max &<< shift)))
              // The space after the word (most words have one) is passed here, where its byte
              // is at hand: the next token is after it, and has `.afterSpace`.
              let space = stop == UInt8(ascii: " ")
              cursor = letters &+ (space ? 1 : 0)
              pending |= space ? Token.Flags.afterSpace.rawValue : 0
              continue
            }
          } else {
            letters = start &+ 8
          }
        }
        cursor = classes.nameEnd(in: bytes, from: letters)
        // A name with non-ASCII letters; or eight name bytes before a `-`: perhaps a UUID.
        if cursor < count && table[Int(bytes[cursor])] & ByteClass.wordStop != 0
          && (bytes[cursor] >= 0x80 || cursor &- start == 8)
        {
          break
        }
        put(
          .word, start, cursor, pending,
          keyword: keywords.find(in: bytes, from: start, to: cursor))
        continue
      case .leftParen:
        open(.leftParen)
        continue
      case .rightParen:
        close(.rightParen)
        continue
      case .leftBracket:
        open(.leftBracket)
        continue
      case .rightBracket:
        close(.rightBracket)
        continue
      case .leftBrace:
        open(.leftBrace)
        continue
      case .rightBrace:
        close(.rightBrace)
        continue
      case .comma:
        single(.comma)
        continue
      case .star:
        single(.star)
        continue
      case .dot:
        let ellipsis =
          (!checked || start &+ 2 < count) && bytes[start &+ 1] == UInt8(ascii: ".")
          && bytes[start &+ 2] == UInt8(ascii: ".")
        cursor = start &+ (ellipsis ? 3 : 1)
        put(ellipsis ? .ellipsis : .dot, start, cursor, pending)
        continue
      case .colon:
        pair(UInt8(ascii: ":"), .doubleColon, else: .colon)
        continue
      case .bang:
        pair(UInt8(ascii: "="), .notEqual, else: .bang)
        continue
      case .equal:
        pair(UInt8(ascii: "="), .doubleEqual, else: .equal)
        continue
      case .less:
        let second = !checked || start &+ 1 < count ? bytes[start &+ 1] : 0
        let kind: TokenKind =
          second == UInt8(ascii: "=")
          ? .lessEqual : second == UInt8(ascii: ">") ? .lessGreater : .less
        cursor = start &+ (kind == .less ? 1 : 2)
        put(kind, start, cursor, pending)
        continue
      case .greater:
        pair(UInt8(ascii: "="), .greaterEqual, else: .greater)
        continue
      case .tilde:
        pair(UInt8(ascii: "*"), .tildeStar, else: .tilde)
        continue
      case .other:
        cursor = start &+ Lexer.invalidRunLength(bytes, from: start)
        put(.invalid, start, cursor, pending)
        continue
      case .singleQuote:
        let (end, extra, closed) = Lexer.scanQuoted(
          bytes, from: start &+ 1, quote: UInt8(ascii: "'"))
        if closed {
          cursor = end &+ 1
          put(.singleQuoted, start, cursor, pending | extra.rawValue)
          continue
        }
      case .doubleQuote:
        let (end, extra, closed) = Lexer.scanQuoted(
          bytes, from: start &+ 1, quote: UInt8(ascii: "\""))
        if closed {
          cursor = end &+ 1
          put(.doubleQuoted, start, cursor, pending | extra.rawValue)
          continue
        }
      case .digit:
        // Digits, and a fraction, alone: the other numbers (and UUIDs and dates) go to lexNumeric.
        var end = start &+ 1
        while end < count && bytes[end] &- UInt8(ascii: "0") < 10 { end &+= 1 }
        if end &+ 1 < count && bytes[end] == UInt8(ascii: ".")
          && bytes[end &+ 1] &- UInt8(ascii: "0") < 10
        {
          end &+= 2
          while end < count && bytes[end] &- UInt8(ascii: "0") < 10 { end &+= 1 }
        }
        if end < count {
          let after = bytes[end]
          // A name byte (`e`, or glued letters), `-` (a date or a UUID), `.`, or non-ASCII.
          if Int8(bitPattern: table[Int(after)]) < 0 || after >= 0x80
            || after == UInt8(ascii: "-") || after == UInt8(ascii: ".")
          {
            break
          }
        }
        // A leading zero before more digits is malformed: lexNumeric says so.
        if byte == UInt8(ascii: "0") && end &- start > 1
          && bytes[start &+ 1] != UInt8(ascii: ".")
        {
          break
        }
        cursor = end
        put(.number, start, cursor, pending)
        continue
      case .space:
        cursor &+= 1
        pending |= Token.Flags.afterSpace.rawValue
        continue
      case .comment:
        while cursor < count && bytes[cursor] != UInt8(ascii: "\n") { cursor &+= 1 }
        pending |= Token.Flags.afterSpace.rawValue
        continue
      case .newline:
        cursor &+= 1
        if depth.pointee > 0 {
          pending = Token.Flags.atLineStart.rawValue | Token.Flags.afterSpace.rawValue | inside
          continue
        }
        put(.newline, start, cursor, pending)
        pending = Token.Flags.atLineStart.rawValue | Token.Flags.afterSpace.rawValue
        if recordEnd() { break lexing }
        continue
      case .semicolon:
        cursor &+= 1
        depth.pointee = 0
        pending &= ~inside
        put(.semicolon, start, cursor, pending)
        if recordEnd() { break lexing }
        continue
      case .rare:
        break
      }
      // The cases that break here leave the token to the lexer's methods.
      cursor = start
      stop = .rare
      break
    }
    state.cursor = cursor
    state.pending = pending
    state.next = next
    state.ends = ends
    return stop
  }

  /// How many tokens fit between `next` and `room`, or fewer, but one at least when one does:
  /// the room's bytes over 16 (a shift), not 12 (a token's size: a division).
  @inline(__always) private static func tokensLeft(
    _ next: UnsafeMutablePointer<Token>, _ room: UnsafeMutablePointer<Token>
  ) -> Int {
    (Int(bitPattern: room) &- Int(bitPattern: next) &+ 4) &>> 4
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
