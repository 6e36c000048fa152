/// `help`, `tables`, `describe`, `explain`, `set`, `exit`/`quit`, and `\q \d \dt \i \x \timing`.
extension Parser {
  mutating func parseShell() throws(ParseFailure) -> ShellStatement {
    let keyword = advance()
    switch keyword.keyword {
    case .help:
      if let bad = tokens[position...].prefix(while: { !$0.kind.isStatementEnd }).first(where: {
        $0.kind.isError
      }) {
        throw tokenFailure(bad)
      }
      return .help(topic: parseRawRest()?.0)
    case .tables:
      return .tables
    case .describe:
      let table = try parseTableName(.table, what: "a table name", after: "'describe'")
      return .describe(table)
    case .explain:
      return try parseExplain()
    case .set:
      return try parseSet()
    default:
      return .exit
    }
  }

  /// `explain [json|curl] <query or rpc>`.
  mutating func parseExplain() throws(ParseFailure) -> ShellStatement {
    var format = ExplainFormat.text
    let next = peek()
    record(.keyword("json"))
    record(.keyword("curl"))
    if (current.keyword == .json || current.keyword == .curl)
      && (next.keyword == .from || next.keyword == .rpc)
    {
      format = current.keyword == .json ? .json : .curl
      advance()
    }
    record(.keyword("from"))
    record(.keyword("rpc"))
    guard current.keyword == .from || current.keyword == .rpc else {
      if current.kind == .word && current.keyword.map(Parser.statementKeywords.contains) == true {
        throw failure(
          .notARequest("'\(text(current))'"), at: current.range,
          help: "explain shows the request a query or rpc sends; '\(text(current))' sends none")
      }
      throw expectedFailure(
        "a query or rpc", after: "'explain'", help: "for example 'explain from user_info select *'")
    }
    return .explain(try parseStatement(), format: format)
  }

  static let settings = ["format", "timing", "pager", "on_error"]

  mutating func parseSet() throws(ParseFailure) -> ShellStatement {
    recordKeywords(Parser.settings)
    switch current.keyword {
    case .format:
      advance()
      let choice = try parseChoice(
        ShellStatement.Format.allCases.map(\.rawValue), after: "'set format'")
      return .setFormat(ShellStatement.Format(rawValue: choice) ?? .table)
    case .timing:
      advance()
      return .setTiming(try parseChoice(["on", "off"], after: "'set timing'") == "on")
    case .pager:
      advance()
      return .setPager(try parseChoice(["on", "off"], after: "'set pager'") == "on")
    case .on_error:
      advance()
      let choice = try parseChoice(["stop", "continue"], after: "'set on_error'")
      return .setOnError(ShellStatement.OnError(rawValue: choice) ?? .stop)
    default:
      let help =
        current.kind == .word ? DidYouMean.help(text(current), among: Parser.settings) : nil
      throw expectedFailure("format, timing, pager or on_error", after: "'set'", help: help)
    }
  }

  /// One word of `choices` (any letter case), returned lowercased.
  mutating func parseChoice(_ choices: [String], after: @autoclosure () -> String)
    throws(ParseFailure) -> String
  {
    recordKeywords(choices)
    let listed = choices.dropLast().joined(separator: ", ") + " or " + (choices.last ?? "")
    guard current.kind == .word else { throw expectedFailure(listed, after: after()) }
    let word = text(current).lowercased()
    guard choices.contains(word) else {
      throw failure(
        .expected(listed, after: after(), found: "'\(text(current))'"), at: current.range,
        help: DidYouMean.help(word, among: choices))
    }
    advance()
    return word
  }

  static let backslashCommands = ["\\q", "\\d", "\\dt", "\\i", "\\x", "\\timing"]

  mutating func parseBackslashCommand() throws(ParseFailure) -> Statement.Kind {
    let token = advance()
    let command = text(token)
    switch command {
    case "\\q": return .shell(.exit)
    case "\\dt": return .shell(.tables)
    case "\\x": return .shell(.toggleExpanded)
    case "\\d":
      if current.kind.isStatementEnd { return .shell(.tables) }
      return .shell(.describe(try parseTableName(.table, what: "a table name", after: "'\\d'")))
    case "\\i":
      return .run(try parsePath(after: "'\\i'"))
    case "\\timing":
      if current.kind.isStatementEnd { return .shell(.setTiming(nil)) }
      return .shell(.setTiming(try parseChoice(["on", "off"], after: "'\\timing'") == "on"))
    default:
      throw failure(
        .unknownCommand(command), at: token.range,
        help: DidYouMean.help(command, among: Parser.backslashCommands)
          ?? "the psql-style commands are \\q \\d \\dt \\i \\x \\timing")
    }
  }
}
