import SNMSupabase

/// Moving through tokens, matching them, and making failures.
extension Parser {
  // Inlined, as the token access under them: read dozens of times a statement, and a call
  // copied the token window to read one token. The current token is the parser's own
  // (`Parser.current`), so reading it is one load.

  /// The token `offset` ahead; past the statement's end, that end.
  @inline(__always) func peek(_ offset: Int = 1) -> Token {
    tokens[position + offset]
  }

  @discardableResult
  @inline(__always) mutating func advance() -> Token {
    let token = current
    if token.kind != .endOfFile {
      position += 1
      previousEnd = token.end
      current = tokens[position]
    }
    return token
  }

  /// Goes to `newPosition` (the next statement's tokens lexed once it is past the window's).
  mutating func move(to newPosition: Int) {
    // The token before `newPosition` is the current one when it is the next, and the same one
    // when it is this one: read from the window only for a jump.
    let step = newPosition &- position
    if step == 1 { previousEnd = current.end }
    position = newPosition
    tokens.reach(newPosition)
    current = tokens[newPosition]
    if step != 0 && step != 1 { previousEnd = newPosition > 0 ? tokens[newPosition - 1].end : 0 }
  }

  /// Whether the current token is `keyword` (recorded for completion).
  @inline(__always) mutating func at(_ keyword: Keyword) -> Bool {
    if position == cursorToken { expected.append(.keyword(keyword.rawValue)) }
    return current.keyword == keyword
  }

  /// Whether the current token is of `kind` (recorded for completion).
  @inline(__always) mutating func at(_ kind: TokenKind) -> Bool {
    if position == cursorToken { expected.append(.symbol(kind)) }
    return current.kind == kind
  }

  /// Consumes `keyword` if it is next.
  @inline(__always) mutating func eat(_ keyword: Keyword) -> Token? {
    at(keyword) ? advance() : nil
  }

  /// Consumes a token of `kind` if it is next.
  @inline(__always) mutating func eat(_ kind: TokenKind) -> Token? {
    at(kind) ? advance() : nil
  }

  /// Consumes `keyword` or fails with "expected 'keyword' after ...".
  @discardableResult
  mutating func expect(_ keyword: Keyword, after: @autoclosure () -> String) throws(ParseFailure)
    -> Token
  {
    if let token = eat(keyword) { return token }
    throw expectedFailure("'\(keyword.rawValue)'", after: after())
  }

  static let isValueWords = ["null", "true", "false", "unknown"]
  static let countWords = SupabaseCountOption.allCases.map(\.rawValue)
  static let expectWords = ["rows", "status", "error", "event", "no"]

  /// Records that completion could offer each keyword here.
  mutating func recordKeywords(_ words: @autoclosure () -> [String]) {
    guard position == cursorToken else { return }
    for word in words() { expected.append(.keyword(word)) }
  }

  /// Goes one level deeper at `token` (a bracket or `not`); pair with `leaveNesting()`.
  mutating func enterNesting(_ token: Token) throws(ParseFailure) {
    guard nesting < Parser.maximumNesting else {
      throw failure(
        .nestingTooDeep(Parser.maximumNesting), at: token.range,
        help: "split the statement, or bind deep values with 'let' first")
    }
    nesting += 1
  }

  mutating func leaveNesting() {
    nesting -= 1
  }

  /// Makes `table` the one whose columns fit from here on (`tableContext`), when completing: a
  /// check or a run never reads it (a push and a pop at every statement, and at every embed).
  @inline(__always) mutating func enterTable(_ table: @autoclosure () -> String) {
    if cursorToken >= 0 { tableContext.append(table()) }
  }

  /// Undoes the last `enterTable(_:)`.
  @inline(__always) mutating func leaveTable() {
    if cursorToken >= 0 { tableContext.removeLast() }
  }

  /// `)`, `]` or `}` closing `open`, or a failure that points at both.
  mutating func expectClose(_ kind: TokenKind, opened open: Token) throws(ParseFailure) {
    if eat(kind) != nil { return }
    if current.kind.isError { throw tokenFailure(current) }
    let openText = text(open)
    let close = String(kind.spelling.dropFirst().dropLast())
    let range = current.kind.isStatementEnd ? SourceRange.point(previousEnd) : current.range
    throw failure(
      .unclosed(openText, close: close, found: describe(current)), at: range,
      notes: [Diagnostic.Note("'\(openText)' opened here", at: open.range)])
  }

  /// Records that completion could offer `item` here.
  /// (An autoclosure: the item, often a table name, is made only when completing.)
  mutating func record(_ item: @autoclosure () -> ExpectedItem) {
    if position == cursorToken { expected.append(item()) }
  }

  /// The text of a token.
  func text(_ token: Token) -> String {
    texts.text(of: token.range, in: source)
  }

  /// How a token is named in a message: `'selec'`, `a string`, `the end of the statement`.
  func describe(_ token: Token) -> String {
    switch token.kind {
    case .word, .number, .uuid, .date, .timestamp, .variable, .backslashCommand, .malformedNumber,
      .invalid:
      return "'\(text(token))'"
    case .newline, .semicolon, .endOfFile:
      return "the end of the statement"
    default:
      return token.kind.spelling
    }
  }

  func failure(
    _ message: DiagnosticMessage, at range: SourceRange, help: String? = nil,
    notes: [Diagnostic.Note] = []
  ) -> ParseFailure {
    ParseFailure(diagnostic: Diagnostic(message, at: range, help: help, notes: notes))
  }

  /// The current token, taken, when it is a string in quotes; else the failure "expected
  /// `what` after `after`" with `help`.
  mutating func expectQuoted(
    _ what: String, after: @autoclosure () -> String, help: String
  ) throws(ParseFailure) -> Token {
    guard current.kind.isQuoted else { throw expectedFailure(what, after: after(), help: help) }
    return advance()
  }

  /// A quoted name that is the last thing in the statement, taken and decoded, with its token;
  /// nil (nothing taken) when the statement goes on or the current token is not quoted.
  mutating func quotedNameAtEnd() throws(ParseFailure) -> (name: String, token: Token)? {
    let token = current
    guard token.kind.isQuoted && peek().kind.isStatementEnd else { return nil }
    advance()
    return (try decodeQuotedName(token), token)
  }

  /// "expected X after Y[, found Z]" at the current token; a lexical error token reports itself.
  func expectedFailure(_ what: String, after: @autoclosure () -> String?, help: String? = nil)
    -> ParseFailure
  {
    if current.kind.isError { return tokenFailure(current) }
    let found: String? = current.kind.isStatementEnd ? nil : describe(current)
    let range = current.kind.isStatementEnd ? SourceRange.point(previousEnd) : current.range
    return failure(.expected(what, after: after(), found: found), at: range, help: help)
  }

  /// The diagnostic for a lexical error token.
  func tokenFailure(_ token: Token) -> ParseFailure {
    let spelled = text(token)
    switch token.kind {
    case .unterminatedString:
      let quote = spelled.first == "'" ? "'" : "\""
      return failure(
        .unterminatedString, at: SourceRange.point(token.start),
        help: "close the string with \(quote) on the same line")
    case .malformedNumber:
      return failure(
        .malformedNumber(spelled), at: token.range,
        help: "numbers are JSON numbers; quote other text: '\(spelled)'")
    default:
      if spelled.hasPrefix("$") {
        return failure(
          .invalidVariable, at: token.range,
          help: "variables are written $name, $name.field or ${name}")
      }
      if spelled.utf8.count > 1 || (spelled.unicodeScalars.first?.value ?? 0) >= 0x80 {
        return failure(
          .unquotedName(spelled), at: token.range, help: DiagnosticMessage.writeQuoted(spelled))
      }
      return failure(
        .invalidCharacter(spelled), at: token.range, help: Parser.characterHelp(spelled))
    }
  }

  static func characterHelp(_ character: String) -> String? {
    switch character {
    case "-": "names with '-' are written in double quotes: \"first-name\""
    case "/", "@", "%", "&", "+", "|", "^", "?", "`":
      "quote values and names that hold '\(character)'"
    case "\\":
      "'\\' starts a psql-style command (\\? lists them); at the end of a line it continues "
        + "the statement"
    default: nil
    }
  }
}
