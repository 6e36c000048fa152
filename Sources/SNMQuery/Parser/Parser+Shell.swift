/// `help`, `tables`, `describe`, `explain`, `set`, `exit`/`quit`, and the psql-style commands
/// (`Parser.backslashCommands`).
extension Parser {
  mutating func parseShell() throws(ParseFailure) -> ShellStatement {
    let keyword = advance()
    switch keyword.keyword {
    case .help:
      return try parseHelpTopic()
    case .tables:
      return .tables
    case .describe:
      // `describe+` (no space before the `+`), as psql's `\d+`.
      let detailed =
        current.kind == .invalid && text(current) == "+" && !current.flags.contains(.afterSpace)
      if detailed { advance() }
      let after = detailed ? "'describe+'" : "'describe'"
      let table = try parseTableName(.table, what: "a table name", after: after)
      return .describe(table, detailed: detailed)
    case .explain:
      return try parseExplain()
    case .set:
      return try parseSet()
    default:
      return .exit
    }
  }

  /// The rest of `help` or `\\h`: the topic as written, or nil.
  mutating func parseHelpTopic() throws(ParseFailure) -> ShellStatement {
    var ahead = position
    while !tokens[ahead].kind.isStatementEnd {
      if tokens[ahead].kind.isError { throw tokenFailure(tokens[ahead]) }
      ahead += 1
    }
    return .help(topic: parseRawRest()?.0)
  }

  /// Whether `token` is `invoke` or `request` (a statement `explain` shows too).
  func isFunctionsWord(_ token: Token) -> Bool {
    token.kind == .word && Parser.functionsWords.contains(text(token).lowercased())
  }

  /// `explain [json|curl] <query, rpc, invoke or request>`.
  mutating func parseExplain() throws(ParseFailure) -> ShellStatement {
    var format = ExplainFormat.text
    let next = peek()
    record(.keyword("json"))
    record(.keyword("curl"))
    if (current.keyword == .json || current.keyword == .curl)
      && (next.keyword == .from || next.keyword == .rpc || isFunctionsWord(next))
    {
      format = current.keyword == .json ? .json : .curl
      advance()
    }
    record(.keyword("from"))
    record(.keyword("rpc"))
    recordKeywords(Parser.functionsWords)
    guard current.keyword == .from || current.keyword == .rpc || isFunctionsWord(current) else {
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

  static let settings = [
    "format", "expanded", "timing", "pager", "on_error", "null", "output", "timezone",
  ]

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
    case .null:
      advance()
      return .setNull(try parseNullDisplay(after: "'set null'"))
    case .output:
      advance()
      return try parseSetOutput()
    case nil where current.kind == .word && text(current).lowercased() == "timezone":
      advance()
      if current.keyword == .off {
        advance()
        return .setTimezone(nil)
      }
      let token = try expectQuoted(
        "a time zone in quotes or off", after: "'set timezone'",
        help: "for example set timezone 'America/New_York', or set timezone off")
      let name = try decodeQuotedName(token)
      guard !name.isEmpty else {
        throw failure(
          .expected("a time zone in quotes or off", after: "'set timezone'", found: "''"),
          at: token.range, help: "for example set timezone 'Europe/Paris'")
      }
      return .setTimezone(name)
    case nil where current.kind == .word && text(current).lowercased() == "expanded":
      advance()
      let choice = try parseChoice(
        ShellStatement.Expanded.allCases.map(\.rawValue), after: "'set expanded'")
      return .setExpanded(ShellStatement.Expanded(rawValue: choice) ?? .auto)
    default:
      let help =
        current.kind == .word ? DidYouMean.help(text(current), among: Parser.settings) : nil
      throw expectedFailure(
        "format, expanded, timing, pager, on_error, null, output or timezone", after: "'set'",
        help: help)
    }
  }

  /// The text NULL shows as: a quoted string, or the rest of the line as written (`(null)`).
  mutating func parseNullDisplay(after: @autoclosure () -> String) throws(ParseFailure) -> String {
    if let (name, _) = try quotedNameAtEnd() { return name }
    guard let (text, _) = parseRawRest() else {
      throw expectedFailure(
        "the text to show for NULL", after: after(), help: "for example \(after()) '(null)'")
    }
    return text
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

  /// The psql-style commands, as `\\?` lists them.
  public static let backslashCommands = [
    "\\?", "\\h", "\\q", "\\d", "\\d+", "\\dt", "\\i", "\\x", "\\timing", "\\pset", "\\o", "\\e",
    "\\watch", "\\conninfo",
  ]

  mutating func parseBackslashCommand() throws(ParseFailure) -> Statement.Kind {
    let token = advance()
    let command = text(token)
    switch command {
    case "\\q": return .shell(.exit)
    case "\\?": return .shell(.backslashHelp)
    case "\\h", "\\help": return .shell(try parseHelpTopic())
    case "\\dt", "\\dt+": return .shell(.tables)
    case "\\x":
      // `\x` alone toggles; `\x on|off|auto` is `set expanded` (one setting).
      if current.kind.isStatementEnd { return .shell(.toggleExpanded) }
      let choice = try parseChoice(
        ShellStatement.Expanded.allCases.map(\.rawValue), after: "'\\x'")
      return .shell(.setExpanded(ShellStatement.Expanded(rawValue: choice) ?? .auto))
    case "\\d", "\\d+":
      if current.kind.isStatementEnd { return .shell(.tables) }
      let table = try parseTableName(.table, what: "a table name", after: "'\(command)'")
      return .shell(.describe(table, detailed: command == "\\d+"))
    case "\\i":
      return .run(try parsePath(after: "'\\i'"))
    case "\\timing":
      if current.kind.isStatementEnd { return .shell(.setTiming(nil)) }
      return .shell(.setTiming(try parseChoice(["on", "off"], after: "'\\timing'") == "on"))
    case "\\conninfo": return .shell(.connectionInfo)
    case "\\e", "\\edit": return .shell(.edit)
    case "\\o", "\\out":
      if current.kind.isStatementEnd { return .shell(.output(path: nil)) }
      return .shell(.output(path: try parsePath(after: "'\\o'").path))
    case "\\pset": return .shell(try parsePset())
    case "\\watch": return .shell(try parseWatch())
    default:
      // A command cut short (`\\wat`) means the one it starts; else the nearest spelling.
      let started = Parser.backslashCommands.first { command.count > 2 && $0.hasPrefix(command) }
      throw failure(
        .unknownCommand(command), at: token.range,
        help: started.map { "did you mean '\($0)'?" }
          ?? DidYouMean.help(command, among: Parser.backslashCommands)
          ?? "\\? lists the psql-style commands")
    }
  }

  /// `\\pset null X`, `\\pset format F`, `\\pset pager on|off`: psql's spellings of `set`.
  mutating func parsePset() throws(ParseFailure) -> ShellStatement {
    let options = ["null", "format", "pager"]
    recordKeywords(options)
    guard current.kind == .word, options.contains(text(current).lowercased()) else {
      let help = current.kind == .word ? DidYouMean.help(text(current), among: options) : nil
      throw expectedFailure("null, format or pager", after: "'\\pset'", help: help)
    }
    let option = text(advance()).lowercased()
    switch option {
    case "null":
      return .setNull(try parseNullDisplay(after: "'\\pset null'"))
    case "format":
      let choice = try parseChoice(
        ShellStatement.Format.allCases.map(\.rawValue), after: "'\\pset format'")
      return .setFormat(ShellStatement.Format(rawValue: choice) ?? .table)
    default:
      return .setPager(try parseChoice(["on", "off"], after: "'\\pset pager'") == "on")
    }
  }

  /// `\\watch [SECONDS] [count=N]` (psql 16's spelling; also `i=SECONDS`, `c=N`).
  mutating func parseWatch() throws(ParseFailure) -> ShellStatement {
    var seconds = 2.0
    var count: Int?
    while !current.kind.isStatementEnd {
      if current.kind == .number, let value = Double(text(current)) {
        guard value > 0, value <= 86_400 else {
          throw failure(
            .expected(
              "a number of seconds above 0", after: "'\\watch'", found: "'\(text(current))'"),
            at: current.range, help: "for example '\\watch 2'")
        }
        seconds = value
        advance()
        continue
      }
      let name = current.kind == .word ? text(current).lowercased() : ""
      guard ["i", "interval", "c", "count"].contains(name), peek().kind == .equal else {
        throw expectedFailure(
          "seconds or count=N", after: "'\\watch'", help: "for example '\\watch 5 count=3'")
      }
      advance()
      advance()
      guard current.kind == .number, let value = Double(text(current)), value > 0 else {
        throw expectedFailure("a number above 0", after: "'\(name)='")
      }
      if name.hasPrefix("c") {
        guard value == value.rounded(), value <= 1_000_000 else {
          throw expectedFailure("a whole number of runs", after: "'\(name)='")
        }
        count = Int(value)
      } else {
        seconds = value
      }
      advance()
    }
    return .watch(seconds: seconds, count: count)
  }
}
