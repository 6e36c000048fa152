/// The first word of a statement picks its parser.
extension Parser {
  /// A statement as the syntax tree holds it.
  mutating func parseStatement() throws(ParseFailure) -> Statement {
    var builder = ASTBuilder()
    return try parseStatement(into: &builder)
  }

  /// A statement, its queries' and `rpc`s' parts made by `builder`.
  mutating func parseStatement<Builder: TreeBuilder>(into builder: inout Builder)
    throws(ParseFailure) -> Statement
  {
    let start = current.start
    recordKeywords(Parser.statementKeywordOrder)
    record(.symbol(.backslashCommand))
    let kind: Statement.Kind
    switch current.kind {
    case .word:
      kind = try parseKeywordStatement(into: &builder)
    case .backslashCommand:
      kind = try ShellStatementParser.parseBackslashCommand(&self)
    default:
      throw expectedFailure("a statement", after: nil, help: "queries start with 'from <table>'")
    }
    return Statement(kind: kind, range: SourceRange(start: start, end: previousEnd))
  }

  mutating func parseKeywordStatement<Builder: TreeBuilder>(into builder: inout Builder)
    throws(ParseFailure) -> Statement.Kind
  {
    // Realtime statements start with a word that is no keyword, or with `expect`: the others do
    // not hand `starts` a copy of the parser.
    let keyword = current.keyword
    if keyword == nil || keyword == .expect, RealtimeStatementParser.starts(self) {
      return .realtime(try RealtimeStatementParser.parse(&self))
    }
    switch current.keyword {
    case .from: return .query(try QueryParser.parseQuery(&self, into: &builder))
    case .rpc: return .rpc(try QueryParser.parseRPC(&self, into: &builder))
    case .storage: return .storage(try StorageStatementParser.parse(&self))
    case .login where AuthStatementParser.isLoginByMail(self):
      return .auth(try AuthStatementParser.parseLoginByMail(&self))
    case .login where AuthStatementParser.isLoginElsewhere(self):
      return .auth(try AuthStatementParser.parseLoginElsewhere(&self))
    case .password where isWord(peek(), "reset"):
      return .auth(try AuthStatementParser.parsePasswordReset(&self))
    case .login, .signup, .session, .logout:
      return .session(try AuthStatementParser.parseSession(&self))
    case .let: return .let(try ScriptStatementParser.parseLet(&self, into: &builder))
    case .expect: return .expect(try ScriptStatementParser.parseExpect(&self))
    case .echo: return .echo(try ScriptStatementParser.parseEcho(&self))
    case .run: return .run(try ScriptStatementParser.parseRun(&self))
    case .defer: return .deferred(try ScriptStatementParser.parseDefer(&self))
    case .help, .tables, .describe, .explain, .set, .exit, .quit:
      return .shell(try ShellStatementParser.parse(&self))
    case .select, .insert, .upsert, .update, .put, .delete:
      let verb = text(current).lowercased()
      throw failure(
        .queryStartsWithFrom(verb), at: current.range,
        help:
          "write 'from <table> \(verb) ...', as in 'from user_info \(verb)\(verb == "select" ? " *" : " ...")'"
      )
    case nil where AuthStatementParser.words.contains(text(current).lowercased()):
      return try AuthStatementParser.parse(&self)
    case nil where FunctionsStatementParser.words.contains(text(current).lowercased()):
      return .functions(try FunctionsStatementParser.parse(&self))
    default:
      let word = text(current)
      if Parser.clauseWords.contains(word.lowercased()) {
        throw failure(
          .unknownStatement(word), at: current.range,
          help: "'\(word)' goes on a statement, and a statement ends at the end of its line: "
            + "end the line before with '\\' to go on, or keep a '(', '[' or '{' open")
      }
      throw failure(
        .unknownStatement(word), at: current.range,
        help: DidYouMean.help(word, among: Parser.statementKeywordOrder)
          ?? "statements start with from, rpc, login, let, expect, echo, help, ...; see 'help'")
    }
  }

  /// Words that continue a statement (psql users put them on the next line).
  static let clauseWords: Set<String> = [
    "where", "and", "or", "order", "limit", "offset", "returning", "single", "maybe", "count",
    "on", "ignore",
  ]

  /// Statement keywords in the order completion offers them.
  static let statementKeywordOrder =
    [
      "from", "rpc", "storage", "login", "signup", "session", "logout", "let", "expect", "echo",
      "run", "defer", "help", "tables", "describe", "explain", "set", "exit", "quit",
    ] + AuthStatementParser.words + ["password"] + RealtimeStatementParser.words
    + FunctionsStatementParser.words

  /// A name: any word (keywords included) or a double-quoted name. A column's or relation's
  /// `role` without a table (`.column(table: nil)`) is one of the table read now
  /// (`tableContext.last`), looked up only when completing here: passing that table in made
  /// (and let go) a copy of it at every name.
  mutating func parseName(_ role: NameRole, what: String, after: @autoclosure () -> String?)
    throws(ParseFailure)
    -> Name
  {
    if position == cursorToken { expected.append(.name(role.inTable(tableContext.last))) }
    switch current.kind {
    case .word:
      let token = advance()
      return Name(text(token), range: token.range)
    case .doubleQuoted:
      let token = advance()
      return Name(try decodeQuotedName(token), quoted: true, range: token.range)
    case .singleQuoted:
      let quoted = text(current).dropFirst().dropLast().split(
        separator: "''", omittingEmptySubsequences: false
      ).joined(separator: "'")
      throw expectedFailure(what, after: after(), help: "names go in double quotes: \"\(quoted)\"")
    default:
      throw expectedFailure(what, after: after())
    }
  }

  /// `name` or `schema.name`.
  mutating func parseTableName(_ role: NameRole, what: String, after: @autoclosure () -> String)
    throws(ParseFailure)
    -> TableName
  {
    let first = try parseName(role, what: what, after: after())
    if current.kind == .dot && peek().start == current.end {
      advance()
      let second = try parseName(role, what: what, after: "'\(first.text).'")
      return TableName(schema: first, name: second)
    }
    return TableName(name: first)
  }
}
