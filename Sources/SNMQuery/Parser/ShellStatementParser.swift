/// The grammar of the shell's own statements: `help`, `tables`, `describe`, `explain`, `set`,
/// `exit`/`quit`, and the psql-style commands (`backslashCommands`, which the completer offers).
/// A value type of its own over the ``Parser``'s cursor: each function takes the parser `inout`
/// (as ``RealtimeStatementParser``'s do), so its tokens are never copied.
public enum ShellStatementParser {
  static func parse(_ parser: inout Parser) throws(ParseFailure) -> ShellStatement {
    let keyword = parser.advance()
    switch keyword.keyword {
    case .help:
      return try parseHelpTopic(&parser)
    case .tables:
      return .tables
    case .describe:
      // `describe+` (no space before the `+`), as psql's `\d+`.
      let detailed =
        parser.current.kind == .invalid && parser.text(parser.current) == "+"
        && !parser.current.flags.contains(.afterSpace)
      if detailed { parser.advance() }
      let after = detailed ? "'describe+'" : "'describe'"
      let table = try parser.parseTableName(.table, what: "a table name", after: after)
      return .describe(table, detailed: detailed)
    case .explain:
      return try parseExplain(&parser)
    case .set:
      return try parseSet(&parser)
    default:
      return .exit
    }
  }

  /// The rest of `help` or `\\h`: the topic as written, or nil.
  static func parseHelpTopic(_ parser: inout Parser) throws(ParseFailure) -> ShellStatement {
    var ahead = parser.position
    while !parser.tokens[ahead].kind.isStatementEnd {
      if parser.tokens[ahead].kind.isError { throw parser.tokenFailure(parser.tokens[ahead]) }
      ahead += 1
    }
    return .help(topic: rawRest(&parser)?.0)
  }

  /// `explain [json|curl] <query, rpc, invoke or request>`.
  static func parseExplain(_ parser: inout Parser) throws(ParseFailure) -> ShellStatement {
    var format = ExplainFormat.text
    let next = parser.peek()
    parser.record(.keyword("json"))
    parser.record(.keyword("curl"))
    if (parser.current.keyword == .json || parser.current.keyword == .curl)
      && (next.keyword == .from || next.keyword == .rpc
        || FunctionsStatementParser.starts(parser, next))
    {
      format = parser.current.keyword == .json ? .json : .curl
      parser.advance()
    }
    parser.record(.keyword("from"))
    parser.record(.keyword("rpc"))
    parser.recordKeywords(FunctionsStatementParser.words)
    guard
      parser.current.keyword == .from || parser.current.keyword == .rpc
        || FunctionsStatementParser.starts(parser, parser.current)
    else {
      if parser.current.kind == .word
        && parser.current.keyword.map(Parser.statementKeywords.contains) == true
      {
        throw parser.failure(
          .notARequest("'\(parser.text(parser.current))'"), at: parser.current.range,
          help:
            "explain shows the request a query or rpc sends; '\(parser.text(parser.current))' sends none"
        )
      }
      throw parser.expectedFailure(
        "a query or rpc", after: "'explain'", help: "for example 'explain from user_info select *'")
    }
    return .explain(try parser.parseStatement(), format: format)
  }

  static let settings = [
    "format", "expanded", "timing", "pager", "on_error", "null", "output", "timezone",
  ]

  static func parseSet(_ parser: inout Parser) throws(ParseFailure) -> ShellStatement {
    parser.recordKeywords(Self.settings)
    switch parser.current.keyword {
    case .format:
      parser.advance()
      let choice = try parser.parseChoice(
        ShellStatement.Format.allCases.map(\.rawValue), after: "'set format'")
      return .setFormat(ShellStatement.Format(rawValue: choice) ?? .table)
    case .timing:
      parser.advance()
      return .setTiming(try parser.parseChoice(["on", "off"], after: "'set timing'") == "on")
    case .pager:
      parser.advance()
      return .setPager(try parser.parseChoice(["on", "off"], after: "'set pager'") == "on")
    case .on_error:
      parser.advance()
      let choice = try parser.parseChoice(["stop", "continue"], after: "'set on_error'")
      return .setOnError(ShellStatement.OnError(rawValue: choice) ?? .stop)
    case .null:
      parser.advance()
      return .setNull(try parseNullDisplay(&parser, after: "'set null'"))
    case .output:
      parser.advance()
      return try parseSetOutput(&parser)
    case nil
    where parser.current.kind == .word && parser.text(parser.current).lowercased() == "timezone":
      parser.advance()
      if parser.current.keyword == .off {
        parser.advance()
        return .setTimezone(nil)
      }
      let token = try parser.expectQuoted(
        "a time zone in quotes or off", after: "'set timezone'",
        help: "for example set timezone 'America/New_York', or set timezone off")
      let name = try parser.decodeQuotedName(token)
      guard !name.isEmpty else {
        throw parser.failure(
          .expected("a time zone in quotes or off", after: "'set timezone'", found: "''"),
          at: token.range, help: "for example set timezone 'Europe/Paris'")
      }
      return .setTimezone(name)
    case nil
    where parser.current.kind == .word && parser.text(parser.current).lowercased() == "expanded":
      parser.advance()
      let choice = try parser.parseChoice(
        ShellStatement.Expanded.allCases.map(\.rawValue), after: "'set expanded'")
      return .setExpanded(ShellStatement.Expanded(rawValue: choice) ?? .auto)
    default:
      let help =
        parser.current.kind == .word
        ? DidYouMean.help(parser.text(parser.current), among: Self.settings) : nil
      throw parser.expectedFailure(
        "format, expanded, timing, pager, on_error, null, output or timezone", after: "'set'",
        help: help)
    }
  }

  /// The text NULL shows as: a quoted string, or the rest of the line as written (`(null)`).
  static func parseNullDisplay(_ parser: inout Parser, after: @autoclosure () -> String)
    throws(ParseFailure) -> String
  {
    if let (name, _) = try parser.quotedNameAtEnd() { return name }
    guard let (text, _) = rawRest(&parser) else {
      throw parser.expectedFailure(
        "the text to show for NULL", after: after(), help: "for example \(after()) '(null)'")
    }
    return text
  }

  /// The psql-style commands, as `\\?` lists them.
  public static let backslashCommands = [
    "\\?", "\\h", "\\q", "\\d", "\\d+", "\\dt", "\\i", "\\x", "\\timing", "\\pset", "\\o", "\\e",
    "\\watch", "\\conninfo",
  ]

  static func parseBackslashCommand(_ parser: inout Parser) throws(ParseFailure) -> Statement.Kind {
    let token = parser.advance()
    let command = parser.text(token)
    switch command {
    case "\\q": return .shell(.exit)
    case "\\?": return .shell(.backslashHelp)
    case "\\h", "\\help": return .shell(try parseHelpTopic(&parser))
    case "\\dt", "\\dt+": return .shell(.tables)
    case "\\x":
      // `\x` alone toggles; `\x on|off|auto` is `set expanded` (one setting).
      if parser.current.kind.isStatementEnd { return .shell(.toggleExpanded) }
      let choice = try parser.parseChoice(
        ShellStatement.Expanded.allCases.map(\.rawValue), after: "'\\x'")
      return .shell(.setExpanded(ShellStatement.Expanded(rawValue: choice) ?? .auto))
    case "\\d", "\\d+":
      if parser.current.kind.isStatementEnd { return .shell(.tables) }
      let table = try parser.parseTableName(.table, what: "a table name", after: "'\(command)'")
      return .shell(.describe(table, detailed: command == "\\d+"))
    case "\\i":
      return .run(try ScriptStatementParser.parsePath(&parser, after: "'\\i'"))
    case "\\timing":
      if parser.current.kind.isStatementEnd { return .shell(.setTiming(nil)) }
      return .shell(.setTiming(try parser.parseChoice(["on", "off"], after: "'\\timing'") == "on"))
    case "\\conninfo": return .shell(.connectionInfo)
    case "\\e", "\\edit": return .shell(.edit)
    case "\\o", "\\out":
      if parser.current.kind.isStatementEnd { return .shell(.output(nil)) }
      if parser.current.kind.isQuoted && parser.peek().kind.isStatementEnd {
        parser.record(.name(.file))
        return .shell(.output(try parseOutputName(&parser)))
      }
      // Unquoted, the rest as written (psql's spelling): no `${...}` is filled in.
      let path = try ScriptStatementParser.parsePath(&parser, after: "'\\o'")
      return .shell(.output(OutputFile(path: path.path, range: path.pathRange)))
    case "\\pset": return .shell(try parsePset(&parser))
    case "\\watch": return .shell(try parseWatch(&parser))
    default:
      // A command cut short (`\\wat`) means the one it starts; else the nearest spelling.
      let started = Self.backslashCommands.first { command.count > 2 && $0.hasPrefix(command) }
      throw parser.failure(
        .unknownCommand(command), at: token.range,
        help: started.map { "did you mean '\($0)'?" }
          ?? DidYouMean.help(command, among: Self.backslashCommands)
          ?? "\\? lists the psql-style commands")
    }
  }

  /// `\\pset null X`, `\\pset format F`, `\\pset pager on|off`: psql's spellings of `set`.
  static func parsePset(_ parser: inout Parser) throws(ParseFailure) -> ShellStatement {
    let options = ["null", "format", "pager"]
    parser.recordKeywords(options)
    guard parser.current.kind == .word, options.contains(parser.text(parser.current).lowercased())
    else {
      let help =
        parser.current.kind == .word
        ? DidYouMean.help(parser.text(parser.current), among: options) : nil
      throw parser.expectedFailure("null, format or pager", after: "'\\pset'", help: help)
    }
    let option = parser.text(parser.advance()).lowercased()
    switch option {
    case "null":
      return .setNull(try parseNullDisplay(&parser, after: "'\\pset null'"))
    case "format":
      let choice = try parser.parseChoice(
        ShellStatement.Format.allCases.map(\.rawValue), after: "'\\pset format'")
      return .setFormat(ShellStatement.Format(rawValue: choice) ?? .table)
    default:
      return .setPager(try parser.parseChoice(["on", "off"], after: "'\\pset pager'") == "on")
    }
  }

  /// `\\watch [SECONDS] [count=N]` (psql 16's spelling; also `i=SECONDS`, `c=N`).
  static func parseWatch(_ parser: inout Parser) throws(ParseFailure) -> ShellStatement {
    var seconds = 2.0
    var count: Int?
    while !parser.current.kind.isStatementEnd {
      if parser.current.kind == .number, let value = Double(parser.text(parser.current)) {
        guard value > 0, value <= 86_400 else {
          throw parser.failure(
            .expected(
              "a number of seconds above 0", after: "'\\watch'",
              found: "'\(parser.text(parser.current))'"),
            at: parser.current.range, help: "for example '\\watch 2'")
        }
        seconds = value
        parser.advance()
        continue
      }
      let name = parser.current.kind == .word ? parser.text(parser.current).lowercased() : ""
      guard ["i", "interval", "c", "count"].contains(name), parser.peek().kind == .equal else {
        throw parser.expectedFailure(
          "seconds or count=N", after: "'\\watch'", help: "for example '\\watch 5 count=3'")
      }
      parser.advance()
      parser.advance()
      guard parser.current.kind == .number, let value = Double(parser.text(parser.current)),
        value > 0
      else {
        throw parser.expectedFailure("a number above 0", after: "'\(name)='")
      }
      if name.hasPrefix("c") {
        guard value == value.rounded(), value <= 1_000_000 else {
          throw parser.expectedFailure("a whole number of runs", after: "'\(name)='")
        }
        count = Int(value)
      } else {
        seconds = value
      }
      parser.advance()
    }
    return .watch(seconds: seconds, count: count)
  }

  /// `set output 'run.log'` (results to the file, as `\o run.log`); `set output off` (or
  /// `stdout`) sends them back.
  static func parseSetOutput(_ parser: inout Parser) throws(ParseFailure) -> ShellStatement {
    let token = parser.current
    if token.kind.isQuoted { return .output(try parseOutputName(&parser)) }
    if token.keyword == .off || (token.kind == .word && parser.text(token).lowercased() == "stdout")
    {
      parser.advance()
      return .output(nil)
    }
    throw parser.expectedFailure(
      "a file name in quotes, or off", after: "'set output'",
      help: "for example: set output 'run.log'")
  }

  /// The quoted file name of `set output` and `\\o`, its `${...}` parts filled in when it runs
  /// (as `> 'out.csv'`'s are).
  static func parseOutputName(_ parser: inout Parser) throws(ParseFailure) -> OutputFile {
    let token = parser.advance()
    return OutputFile(
      path: try parser.decodeQuotedName(token),
      literal: try parser.decodeString(token, interpolateBare: false), range: token.range)
  }

  /// The rest of the statement's tokens, one space where the text had space (for `run`, `\i`,
  /// `help`, `set null`); comments and line breaks are dropped.
  static func rawRest(_ parser: inout Parser) -> (String, SourceRange)? {
    let start = parser.current.start
    var text = ""
    while !parser.current.kind.isStatementEnd {
      if !text.isEmpty && parser.current.flags.contains(.afterSpace) { text += " " }
      text += parser.text(parser.current)
      parser.advance()
    }
    guard !text.isEmpty else { return nil }
    return (text, SourceRange(start: start, end: parser.previousEnd))
  }
}
