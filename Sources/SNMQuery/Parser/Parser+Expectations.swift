/// The expectations after Hurl's asserts: `expect count`, `expect header`, `expect time`,
/// `expect <value> count|exists|is`, and `... within 10s [every 500ms]`; durations.
extension Parser {
  static let moreExpectWords = ["count", "header", "time"]

  /// `expect count|header|time ...`, or nil when the expectation starts otherwise.
  mutating func parseMoreExpectations() throws(ParseFailure) -> ExpectStatement? {
    switch current.keyword {
    case .count:
      advance()
      let comparison = parseComparisonSymbol() ?? .equal
      return .count(
        comparison, try parseValue(after: "'expect count'", what: "a number of rows"))
    case .header:
      let keyword = advance()
      let name = try parseHeaderName(after: keyword)
      guard let comparison = try parseComparison() else {
        throw expectedFailure(
          "a comparison (== != contains matches)", after: "'expect header \(name)'",
          help: "for example: expect header Content-Range == '0-9/42'")
      }
      let value = try parseValue(after: "'\(comparison.rawValue)'")
      return .header(name: name, comparison, value)
    case .time:
      advance()
      guard let comparison = parseComparisonSymbol() else {
        throw expectedFailure(
          "a comparison (< <= > >=)", after: "'expect time'",
          help: "for example: expect time < 300ms")
      }
      return .time(comparison, try parseDuration(after: "'expect time \(comparison.rawValue)'"))
    default:
      return nil
    }
  }

  /// After `expect <value>`: `count [cmp] N`, `exists`, `not exists`, `is [not] <kind>`; nil when
  /// a comparison follows instead.
  mutating func parseValueExpectation(_ left: ValueNode) throws(ParseFailure) -> ExpectStatement? {
    recordKeywords(["count", "exists", "is", "not"])
    if eat(.count) != nil {
      let comparison = parseComparisonSymbol() ?? .equal
      return .valueCount(
        left, comparison, try parseValue(after: "'count'", what: "a number of elements"))
    }
    if eat(.exists) != nil { return .exists(left, negated: false) }
    if current.keyword == .not && peek().keyword == .exists {
      advance()
      advance()
      return .exists(left, negated: true)
    }
    if eat(.is) != nil {
      let negated = eat(.not) != nil
      let kinds = ValueKind.allCases.map(\.rawValue)
      recordKeywords(kinds)
      guard current.kind == .word || current.keyword == .null,
        let kind = ValueKind(rawValue: text(current).lowercased())
      else {
        throw expectedFailure(
          "a kind (\(kinds.joined(separator: ", ")))", after: "'is'",
          help: current.kind == .word
            ? DidYouMean.help(text(current), among: kinds)
            : "for example: expect $dog.age is number")
      }
      advance()
      return .isKind(left, kind, negated: negated)
    }
    return nil
  }

  /// `within 10s [every 500ms]` after an expectation (not after `expect error`).
  mutating func parseWithin(_ expectation: ExpectStatement) throws(ParseFailure) -> ExpectStatement
  {
    recordKeywords(["within"])
    guard let keyword = eat(.within) else { return expectation }
    if case .error = expectation {
      throw failure(
        .withinOnError, at: keyword.range,
        help: "'expect error' reads the statement before; wait for a result instead")
    }
    let timeout = try parseDuration(after: "'within'")
    recordKeywords(["every"])
    var interval: DurationValue?
    if eat(.every) != nil {
      let every = try parseDuration(after: "'every'")
      guard every.milliseconds > 0 else {
        throw failure(.zeroInterval, at: every.range, help: "for example 'every 500ms'")
      }
      interval = every
    }
    return .within(expectation, timeout: timeout, interval: interval)
  }

  /// `500ms`, `10s`, `1.5m`, `2h`, `1d`.
  mutating func parseDuration(after: @autoclosure () -> String) throws(ParseFailure)
    -> DurationValue
  {
    let token = current
    let spelled = text(token)
    guard token.kind == .malformedNumber || token.kind == .number,
      let milliseconds = DurationValue.milliseconds(of: spelled)
    else {
      if token.kind == .number {
        throw failure(
          .durationWithoutUnit(spelled), at: token.range,
          help: "write '\(spelled)s' or '\(spelled)ms'")
      }
      throw expectedFailure(
        "a duration (500ms, 10s, 2m)", after: after(), help: "for example 'within 10s'")
    }
    advance()
    return DurationValue(milliseconds: milliseconds, text: spelled, range: token.range)
  }

  /// A header name as written (`Content-Range`, `content-range`, `'X-Total'`): the text up to the
  /// next space.
  mutating func parseHeaderName(after keyword: Token) throws(ParseFailure) -> String {
    if current.kind.isQuoted {
      return try decodeQuotedName(advance())
    }
    let bytes = source.bytes
    let start = current.start
    var end = start
    while end < bytes.count, !Parser.endsHeaderName(bytes[end]) { end += 1 }
    guard end > start, !current.kind.isStatementEnd else {
      throw expectedFailure(
        "a header name", after: "'header'",
        help: "for example: expect header Content-Range == '0-9/42'")
    }
    while !current.kind.isStatementEnd && current.start < end { advance() }
    return String(decoding: bytes[start..<end], as: UTF8.self)
  }

  static func endsHeaderName(_ byte: UInt8) -> Bool {
    byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D || byte == UInt8(ascii: "=")
      || byte == UInt8(ascii: "!") || byte == UInt8(ascii: "<") || byte == UInt8(ascii: ">")
      || byte == UInt8(ascii: ";") || byte == UInt8(ascii: "#")
  }
}
