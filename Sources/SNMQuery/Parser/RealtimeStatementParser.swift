/// The grammar of the Realtime statements: `listen`, `unlisten`, `broadcast`, `track`, `untrack`,
/// `expect [no] event` and `realtime check`. A value type of its own over the ``Parser``'s cursor
/// (each function takes the parser `inout`, so its tokens are never copied), so the family's
/// grammar grows here rather than in the parser. Its words are matched as words (any case), as
/// `storage`'s are, so they stay free as names everywhere else.
///
/// ```swift
/// if RealtimeStatementParser.starts(parser) {
///   let statement = try RealtimeStatementParser.parse(&parser)
/// }
/// ```
enum RealtimeStatementParser {
  /// The words that start a Realtime statement (`expect event` aside).
  static let words = ["listen", "unlisten", "broadcast", "track", "untrack", "realtime"]
  /// What follows `realtime`.
  static let realtimeCommands = ["check"]
  static let changeWords = ["insert", "update", "delete", "*"]

  /// Whether the statement at the parser's cursor is a Realtime one (`expect event`,
  /// `expect no event` included).
  static func starts(_ parser: Parser) -> Bool {
    let current = parser.current
    if current.kind == .word, current.keyword == nil,
      words.contains(where: { parser.isWord(current, $0) })
    {
      return true
    }
    guard current.keyword == .expect else { return false }
    return parser.isWord(parser.peek(), "event")
      || (parser.isWord(parser.peek(), "no") && parser.isWord(parser.peek(2), "event"))
  }

  static func parse(_ parser: inout Parser) throws(ParseFailure) -> RealtimeStatement {
    if parser.current.keyword == .expect { return .expectEvent(try parseExpectEvent(&parser)) }
    let word = parser.text(parser.advance()).lowercased()
    switch word {
    case "listen": return .listen(try parseListen(&parser))
    case "realtime": return .check(try parseCheck(&parser))
    case "unlisten":
      parser.recordKeywords(["all"])
      if parser.current.kind.isStatementEnd || parser.eat(.all) != nil { return .unlisten(nil) }
      return .unlisten(
        try parseTopic(
          &parser, what: "a table or topic you listen to, or 'all'", after: "'unlisten'"))
    case "broadcast":
      let topic = try parseTopic(&parser, what: "a topic", after: "'broadcast'")
      let event = try parseTopic(
        &parser, what: "an event name", after: "'broadcast \(topic.text)'",
        help: "for example 'broadcast \(topic.text) cursor {\"x\": 1}'")
      let payload = try ValueParser.parse(
        &parser,
        after: "'broadcast \(topic.text) \(event.text)'", what: "a JSON object")
      return .broadcast(topic: topic, event: event, payload: payload)
    case "track":
      let topic = try parseTopic(&parser, what: "a topic", after: "'track'")
      let payload = try ValueParser.parse(
        &parser,
        after: "'track \(topic.text)'", what: "a JSON object, as in {\"status\": \"online\"}")
      return .track(topic: topic, payload: payload)
    default:  // untrack
      return .untrack(topic: try parseTopic(&parser, what: "a topic", after: "'untrack'"))
    }
  }

  /// `realtime check <table>` or `realtime check channel <topic> [private]`.
  static func parseCheck(_ parser: inout Parser) throws(ParseFailure) -> RealtimeCheckTarget {
    parser.recordKeywords(realtimeCommands)
    guard parser.current.kind == .word, parser.text(parser.current).lowercased() == "check"
    else {
      let word = parser.current.kind == .word ? parser.text(parser.current) : ""
      throw parser.expectedFailure(
        "'check'", after: "'realtime'",
        help: DidYouMean.help(word, among: realtimeCommands)
          ?? "for example 'realtime check todos' or 'realtime check channel room1 private'")
    }
    parser.advance()
    switch try parseSubject(&parser, after: "'realtime check'") {
    case .table(let table): return .table(table)
    case .channel(let topic, let isPrivate): return .channel(topic, isPrivate: isPrivate)
    }
  }

  /// What `listen` and `realtime check` name: a table, or `channel <topic> [private]`.
  private enum Subject {
    case table(TableName)
    case channel(Name, isPrivate: Bool)
  }

  private static func parseSubject(_ parser: inout Parser, after: String) throws(ParseFailure)
    -> Subject
  {
    parser.recordKeywords(["channel"])
    if parser.isWord(parser.current, "channel"), !parser.peek().kind.isStatementEnd {
      parser.advance()
      let topic = try parseTopic(&parser, what: "a topic", after: "\(after.dropLast()) channel'")
      parser.recordKeywords(["private"])
      let isPrivate = parser.eatWord("private")
      return .channel(topic, isPrivate: isPrivate)
    }
    return .table(
      try parser.parseTableName(.table, what: "a table, or 'channel <topic>'", after: after))
  }

  /// `listen channel <topic> [private]` or `listen <table> [insert|update|delete|*] [where ...]`.
  static func parseListen(_ parser: inout Parser) throws(ParseFailure) -> RealtimeListen {
    let table: TableName
    switch try parseSubject(&parser, after: "'listen'") {
    case .channel(let topic, let isPrivate):
      return RealtimeListen(target: .channel(topic, isPrivate: isPrivate))
    case .table(let name): table = name
    }
    parser.recordKeywords(changeWords + ["where"])
    var change = RealtimeChange.all
    if parser.eat(.star) != nil {
      change = .all
    } else if parser.current.kind == .word, parser.current.keyword != .where {
      let word = parser.text(parser.current).lowercased()
      guard let kind = RealtimeChange(rawValue: word.uppercased()) else {
        throw parser.expectedFailure(
          "insert, update, delete, * or where", after: "'listen \(table.name.text)'",
          help: DidYouMean.help(word, among: ["insert", "update", "delete", "where"]))
      }
      parser.advance()
      change = kind
    }
    var listen = RealtimeListen(target: .table(table, change))
    if parser.eat(.where) != nil {
      listen.filter = try ConditionParser.parse(&parser, after: "'where'")
    }
    return listen
  }

  /// `expect [no] event [<subscription>] [<kind>] [where ...] [within <duration>]`. One name
  /// alone that is `insert`, `update` or `delete` is a kind; otherwise the first name is the
  /// subscription and the second the kind.
  static func parseExpectEvent(_ parser: inout Parser) throws(ParseFailure)
    -> RealtimeExpectation
  {
    parser.advance()  // expect
    var expectation = RealtimeExpectation()
    if parser.isWord(parser.current, "no") {
      parser.advance()
      expectation.negated = true
    }
    parser.advance()  // event
    var names: [Name] = []
    parser.recordKeywords(["where", "within"])
    while names.count < 2, parser.current.kind == .word || parser.current.kind == .doubleQuoted,
      parser.current.keyword != .where, parser.current.keyword != .within
    {
      names.append(try parser.parseName(.table, what: "a subscription", after: "'event'"))
      parser.recordKeywords(["where", "within"])
    }
    if names.count == 1, !names[0].quoted,
      ["insert", "update", "delete"].contains(names[0].text.lowercased())
    {
      expectation.kind = names[0]
    } else {
      expectation.subscription = names.first
      expectation.kind = names.count > 1 ? names[1] : nil
    }
    if parser.eat(.where) != nil {
      expectation.filter = try ConditionParser.parse(&parser, after: "'where'")
    }
    parser.recordKeywords(["within"])
    if parser.eat(.within) != nil {
      let duration = try ScriptStatementParser.parseDuration(&parser, after: "'within'")
      guard duration.milliseconds > 0 else {
        throw parser.failure(.zeroInterval, at: duration.range, help: "for example 'within 5s'")
      }
      expectation.within = duration
    }
    return expectation
  }

  /// A topic or event name: a word, a double-quoted name (`"room:1"`), or letters, digits and
  /// `. _ - :` written together (`room-1`, `game:42`).
  static func parseTopic(
    _ parser: inout Parser, what: String, after: String, help: String? = nil
  ) throws(ParseFailure) -> Name {
    parser.record(.name(.table))
    if parser.current.kind == .doubleQuoted {
      let token = parser.advance()
      return Name(try parser.decodeQuotedName(token), quoted: true, range: token.range)
    }
    guard !parser.current.kind.isStatementEnd, isTopicText(parser.text(parser.current)) else {
      if parser.current.kind == .singleQuoted {
        throw parser.expectedFailure(
          what, after: after, help: "names go in double quotes: \"room 1\"")
      }
      throw parser.expectedFailure(what, after: after, help: help)
    }
    let start = parser.current.start
    var end = parser.current.end
    parser.advance()
    while !parser.current.kind.isStatementEnd, parser.current.start == end,
      isTopicText(parser.text(parser.current))
    {
      end = parser.current.end
      parser.advance()
    }
    let range = SourceRange(start: start, end: end)
    return Name(parser.source.text(of: range), range: range)
  }

  /// Whether `text` is all `A-Z a-z 0-9 . _ - :`.
  static func isTopicText(_ text: String) -> Bool {
    Parser.isASCIIWord(text, also: "._-:")
  }
}
