/// A recursive-descent parser for the snm language.
///
/// ```swift
/// let script = Parser.parse(Source(text: "from user_info select * where age >= 3"))
/// script.statements   // [Statement]
/// script.diagnostics  // [] or one per statement that failed
/// ```
/// It never throws: an error in a statement is recorded as a `Diagnostic` and parsing goes on at the
/// next statement (the next newline or `;`, or a line that starts a new statement inside brackets
/// left open), so a script reports all its errors at once.
public struct Parser {
  let source: Source
  /// The tokens of the statement being parsed (and the one before it); see `TokenWindow`.
  var tokens: TokenWindow
  /// The token at `position` (`tokens[position]`), kept here: the parser reads it dozens of
  /// times a statement, and a read of the window is several loads and a compare. Set only with
  /// `position`, by `advance()` and `move(to:)`.
  var current: Token
  /// The Strings of its short tokens, made once each (`text(_:)`).
  let texts = TokenTexts()
  var position = 0
  /// The end offset of the last consumed token (`tokens[position - 1]`; 0 before the first),
  /// kept as `current` is, by `advance()` and `move(to:)`: a statement's ranges read it a dozen
  /// times, and each read of the window was several loads and a compare.
  var previousEnd = 0
  var statements: [Statement] = []
  var diagnostics: [Diagnostic] = []
  /// Set after recovering at a statement keyword inside unclosed brackets: that line ends the statement.
  var resyncedInsideBrackets = false
  /// The keys of the objects being read (`ValueParser.parseObject`), compared as each is read.
  let objectKeys = ObjectKeys()
  /// How many brackets and `not`s deep the parser is: bounded, so no input can exhaust the stack.
  var nesting = 0
  /// The deepest nesting accepted.
  static let maximumNesting = 128

  /// The token index whose alternatives completion wants (`-1`: not completing).
  var cursorToken = -1
  /// What the parser tried at `cursorToken`.
  var expected: [ExpectedItem] = []
  /// The tables whose columns fit at the current point (innermost last), kept only while
  /// completing (`enterTable(_:)`): nothing else reads them.
  var tableContext: [String] = []

  /// A parser over tokens already lexed (completion lexes the line it completes once).
  init(source: Source, tokens: [Token]) {
    self.source = source
    self.tokens = TokenWindow(tokens: tokens)
    current = self.tokens[0]
  }

  /// Parses a whole script (or one line, or `-c` text).
  public static func parse(_ source: Source) -> ParsedScript {
    var parser = Parser(source)
    parser.parseScript()
    return ParsedScript(
      source: source, statements: parser.statements, diagnostics: parser.diagnostics)
  }

  /// Parses `text` as a script named `fileName`.
  public static func parse(_ text: String, fileName: String = "<input>") -> ParsedScript {
    parse(Source(text: text, fileName: fileName))
  }

  mutating func parseScript() {
    while let statement = nextStatement() { statements.append(statement) }
  }

  /// A parser that hands out statements one at a time (`nextStatement()`), so a long script is
  /// checked without holding all of it: the lexer goes a statement ahead, no further.
  ///
  /// ```swift
  /// var parser = Parser(source)
  /// while let statement = parser.nextStatement() { ... }
  /// let problems = parser.diagnostics
  /// ```
  public init(_ source: Source) {
    self.init(source, from: 0)
  }

  /// A parser of the statements of `source` that start at `offset` or after it, the end of a
  /// statement (``ScriptCheck``'s check of the rest of a file after a `run`): the text before it
  /// is not read. Ranges are offsets in the whole source, as ever.
  public init(_ source: Source, from offset: Int) {
    self.source = source
    self.tokens = TokenWindow(source: source, from: offset)
    current = self.tokens[0]
    previousEnd = min(offset, source.bytes.count)
  }

  /// The parse errors found so far.
  public var parseDiagnostics: [Diagnostic] { diagnostics }

  /// The next statement without errors, or nil at the end; statements with errors are recorded in
  /// `parseDiagnostics` and skipped.
  public mutating func nextStatement() -> Statement? {
    var builder = ASTBuilder()
    return nextStatement(into: &builder)
  }

  /// The next statement without errors, its queries' and `rpc`s' parts made by `builder`.
  mutating func nextStatement<Builder: TreeBuilder>(into builder: inout Builder) -> Statement? {
    while true {
      move(to: position)
      while current.kind == .newline || current.kind == .semicolon { move(to: position + 1) }
      if current.kind == .endOfFile {
        // A new statement may start here only after a newline or ';' (not after a failed one).
        if position == cursorToken && (position == 0 || tokens[position - 1].kind.isStatementEnd) {
          recordKeywords(Parser.statementKeywordOrder)
          record(.symbol(.backslashCommand))
        }
        return nil
      }
      let startPosition = position
      nesting = 0
      // Emptied from its end (only completion fills it): `removeAll(keepingCapacity:)` took the
      // generic replace path.
      defer { while !tableContext.isEmpty { tableContext.removeLast() } }
      do throws(ParseFailure) {
        var statement = try parseStatement(into: &builder)
        try expectStatementEnd()
        statement.range = SourceRange(start: tokens[startPosition].start, end: previousEnd)
        return statement
      } catch {
        diagnostics.append(error.diagnostic)
        recover(from: startPosition)
      }
    }
  }

  /// Skips to the end of the failed statement, or to a line inside open brackets that starts a new one.
  mutating func recover(from startPosition: Int) {
    resyncedInsideBrackets = false
    if position == startPosition && !current.kind.isStatementEnd { move(to: position + 1) }
    while !current.kind.isStatementEnd {
      if position > startPosition && startsStatementInsideBrackets(current) {
        resyncedInsideBrackets = true
        return
      }
      move(to: position + 1)
    }
  }

  func startsStatementInsideBrackets(_ token: Token) -> Bool {
    guard token.flags.contains(.atLineStart), token.flags.contains(.insideBrackets),
      let keyword = token.keyword
    else { return false }
    return Parser.statementKeywords.contains(keyword)
  }

  /// After a statement: a newline, `;`, the end, or (after recovery inside brackets) a new line.
  mutating func expectStatementEnd() throws(ParseFailure) {
    if current.kind.isStatementEnd {
      resyncedInsideBrackets = false
      return
    }
    if resyncedInsideBrackets && startsStatementInsideBrackets(current) { return }
    throw failure(
      .unexpectedAfterStatement(describe(current)), at: current.range,
      help: "statements end at a newline or ';'")
  }

  static let statementKeywords: Set<Keyword> = [
    .from, .rpc, .storage, .login, .signup, .session, .logout, .let, .expect, .echo, .run, .help,
    .tables,
    .describe, .explain, .set, .exit, .quit,
  ]
}
