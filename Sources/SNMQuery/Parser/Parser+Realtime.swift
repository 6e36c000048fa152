/// `listen`, `unlisten`, `broadcast`, `track`, `untrack`, `expect [no] event`.
/// Their words are matched as words (any case), as `storage`'s are.
extension Parser {
  static let realtimeWords = ["listen", "unlisten", "broadcast", "track", "untrack"]
  static let changeWords = ["insert", "update", "delete", "*"]

  /// Whether the statement at the cursor is a Realtime one (`expect event`, `expect no event`
  /// included).
  var isRealtimeStatement: Bool {
    if current.kind == .word, Self.realtimeWords.contains(text(current).lowercased()) {
      return true
    }
    guard current.keyword == .expect else { return false }
    return isWord(peek(), "event") || (isWord(peek(), "no") && isWord(peek(2), "event"))
  }

  mutating func parseRealtime() throws(ParseFailure) -> RealtimeStatement {
    if current.keyword == .expect { return .expectEvent(try parseExpectEvent()) }
    let word = text(advance()).lowercased()
    switch word {
    case "listen": return .listen(try parseListen())
    case "unlisten":
      recordKeywords(["all"])
      if current.kind.isStatementEnd || eat(.all) != nil { return .unlisten(nil) }
      return .unlisten(
        try parseTopic(what: "a table or topic you listen to, or 'all'", after: "'unlisten'"))
    case "broadcast":
      let topic = try parseTopic(what: "a topic", after: "'broadcast'")
      let event = try parseTopic(
        what: "an event name", after: "'broadcast \(topic.text)'",
        help: "for example 'broadcast \(topic.text) cursor {\"x\": 1}'")
      let payload = try parseValue(
        after: "'broadcast \(topic.text) \(event.text)'", what: "a JSON object")
      return .broadcast(topic: topic, event: event, payload: payload)
    case "track":
      let topic = try parseTopic(what: "a topic", after: "'track'")
      let payload = try parseValue(
        after: "'track \(topic.text)'", what: "a JSON object, as in {\"status\": \"online\"}")
      return .track(topic: topic, payload: payload)
    default:  // untrack
      return .untrack(topic: try parseTopic(what: "a topic", after: "'untrack'"))
    }
  }

  /// `listen channel <topic> [private]` or `listen <table> [insert|update|delete|*] [where ...]`.
  mutating func parseListen() throws(ParseFailure) -> RealtimeListen {
    recordKeywords(["channel"])
    if isWord(current, "channel"), !peek().kind.isStatementEnd {
      advance()
      let topic = try parseTopic(what: "a topic", after: "'listen channel'")
      recordKeywords(["private"])
      let isPrivate = eatWord("private")
      return RealtimeListen(target: .channel(topic, isPrivate: isPrivate))
    }
    let table = try parseTableName(
      .table, what: "a table, or 'channel <topic>'", after: "'listen'")
    recordKeywords(Self.changeWords + ["where"])
    var change = RealtimeChange.all
    if eat(.star) != nil {
      change = .all
    } else if current.kind == .word, current.keyword != .where {
      let word = text(current).lowercased()
      guard let kind = RealtimeChange(rawValue: word.uppercased()) else {
        throw expectedFailure(
          "insert, update, delete, * or where", after: "'listen \(table.name.text)'",
          help: DidYouMean.help(word, among: ["insert", "update", "delete", "where"]))
      }
      advance()
      change = kind
    }
    var listen = RealtimeListen(target: .table(table, change))
    if eat(.where) != nil {
      listen.filter = try parseCondition(after: "'where'")
    }
    return listen
  }

  /// `expect [no] event [<subscription>] [<kind>] [where ...] [within <duration>]`. One name
  /// alone that is `insert`, `update` or `delete` is a kind; otherwise the first name is the
  /// subscription and the second the kind.
  mutating func parseExpectEvent() throws(ParseFailure) -> RealtimeExpectation {
    advance()  // expect
    var expectation = RealtimeExpectation()
    if isWord(current, "no") {
      advance()
      expectation.negated = true
    }
    advance()  // event
    var names: [Name] = []
    recordKeywords(["where", "within"])
    while names.count < 2, current.kind == .word || current.kind == .doubleQuoted,
      current.keyword != .where, current.keyword != .within
    {
      names.append(try parseName(.table, what: "a subscription", after: "'event'"))
      recordKeywords(["where", "within"])
    }
    if names.count == 1, !names[0].quoted,
      ["insert", "update", "delete"].contains(names[0].text.lowercased())
    {
      expectation.kind = names[0]
    } else {
      expectation.subscription = names.first
      expectation.kind = names.count > 1 ? names[1] : nil
    }
    if eat(.where) != nil {
      expectation.filter = try parseCondition(after: "'where'")
    }
    recordKeywords(["within"])
    if eat(.within) != nil {
      let duration = try parseDuration(after: "'within'")
      guard duration.milliseconds > 0 else {
        throw failure(.zeroInterval, at: duration.range, help: "for example 'within 5s'")
      }
      expectation.within = duration
    }
    return expectation
  }

  /// A topic or event name: a word, a double-quoted name (`"room:1"`), or letters, digits and
  /// `. _ - :` written together (`room-1`, `game:42`).
  mutating func parseTopic(what: String, after: String, help: String? = nil)
    throws(ParseFailure) -> Name
  {
    record(.name(.table))
    if current.kind == .doubleQuoted {
      let token = advance()
      return Name(try decodeQuotedName(token), quoted: true, range: token.range)
    }
    guard !current.kind.isStatementEnd, Self.isTopicText(text(current)) else {
      if current.kind == .singleQuoted {
        throw expectedFailure(what, after: after, help: "names go in double quotes: \"room 1\"")
      }
      throw expectedFailure(what, after: after, help: help)
    }
    let start = current.start
    var end = current.end
    advance()
    while !current.kind.isStatementEnd, current.start == end, Self.isTopicText(text(current)) {
      end = current.end
      advance()
    }
    let range = SourceRange(start: start, end: end)
    return Name(source.text(of: range), range: range)
  }

  /// Whether `text` is all `A-Z a-z 0-9 . _ - :`.
  static func isTopicText(_ text: String) -> Bool {
    !text.isEmpty
      && text.utf8.allSatisfy { byte in
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
          UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "."), UInt8(ascii: "_"),
          UInt8(ascii: "-"), UInt8(ascii: ":"):
          true
        default: false
        }
      }
  }
}
