/// The expectations after Hurl's asserts: `expect count`, `expect header`, `expect time`,
/// `expect <value> count|exists|is`, and `... within 10s [every 500ms]`; durations.
extension ScriptStatementParser {
  static let moreExpectWords = ["count", "header", "time"]

  /// `expect count|header|time ...`, or nil when the expectation starts otherwise.
  static func parseMoreExpectations(_ parser: inout Parser) throws(ParseFailure) -> ExpectStatement?
  {
    switch parser.current.keyword {
    case .count:
      parser.advance()
      let comparison = parseComparisonSymbol(&parser) ?? .equal
      return .count(
        comparison,
        try ValueParser.parse(&parser, after: "'expect count'", what: "a number of rows"))
    case .header:
      let keyword = parser.advance()
      let name = try parseHeaderName(&parser, after: keyword)
      guard let comparison = try parseComparison(&parser) else {
        throw parser.expectedFailure(
          "a comparison (== != contains matches)", after: "'expect header \(name)'",
          help: "for example: expect header Content-Range == '0-9/42'")
      }
      let value = try ValueParser.parse(&parser, after: "'\(comparison.rawValue)'")
      return .header(name: name, comparison, value)
    case .time:
      parser.advance()
      guard let comparison = parseComparisonSymbol(&parser) else {
        throw parser.expectedFailure(
          "a comparison (< <= > >=)", after: "'expect time'",
          help: "for example: expect time < 300ms")
      }
      return .time(
        comparison, try parseDuration(&parser, after: "'expect time \(comparison.rawValue)'"))
    default:
      return nil
    }
  }

  /// After `expect <value>`: `count [cmp] N`, `exists`, `not exists`, `is [not] <kind>`; nil when
  /// a comparison follows instead.
  static func parseValueExpectation(_ parser: inout Parser, _ left: ValueNode) throws(ParseFailure)
    -> ExpectStatement?
  {
    parser.recordKeywords(["count", "exists", "is", "not"])
    if parser.eat(.count) != nil {
      let comparison = parseComparisonSymbol(&parser) ?? .equal
      return .valueCount(
        left, comparison,
        try ValueParser.parse(&parser, after: "'count'", what: "a number of elements"))
    }
    if parser.eat(.exists) != nil { return .exists(left, negated: false) }
    if parser.current.keyword == .not && parser.peek().keyword == .exists {
      parser.advance()
      parser.advance()
      return .exists(left, negated: true)
    }
    if parser.eat(.is) != nil {
      let negated = parser.eat(.not) != nil
      let kinds = ValueKind.allCases.map(\.rawValue)
      parser.recordKeywords(kinds)
      guard parser.current.kind == .word || parser.current.keyword == .null,
        let kind = ValueKind(rawValue: parser.text(parser.current).lowercased())
      else {
        throw parser.expectedFailure(
          "a kind (\(kinds.joined(separator: ", ")))", after: "'is'",
          help: parser.current.kind == .word
            ? DidYouMean.help(parser.text(parser.current), among: kinds)
            : "for example: expect $dog.age is number")
      }
      parser.advance()
      return .isKind(left, kind, negated: negated)
    }
    return nil
  }

  /// `within 10s [every 500ms]` after an expectation (not after `expect error`).
  static func parseWithin(_ parser: inout Parser, _ expectation: ExpectStatement)
    throws(ParseFailure) -> ExpectStatement
  {
    parser.recordKeywords(["within"])
    guard let keyword = parser.eat(.within) else { return expectation }
    if case .error = expectation {
      throw parser.failure(
        .withinOnError, at: keyword.range,
        help: "'expect error' reads the statement before; wait for a result instead")
    }
    let timeout = try parseDuration(&parser, after: "'within'")
    parser.recordKeywords(["every"])
    var interval: DurationValue?
    if parser.eat(.every) != nil {
      let every = try parseDuration(&parser, after: "'every'")
      guard every.milliseconds > 0 else {
        throw parser.failure(.zeroInterval, at: every.range, help: "for example 'every 500ms'")
      }
      interval = every
    }
    return .within(expectation, timeout: timeout, interval: interval)
  }

  /// `500ms`, `10s`, `1.5m`, `2h`, `1d`.
  static func parseDuration(_ parser: inout Parser, after: @autoclosure () -> String)
    throws(ParseFailure)
    -> DurationValue
  {
    let token = parser.current
    let spelled = parser.text(token)
    guard token.kind == .malformedNumber || token.kind == .number,
      let milliseconds = DurationValue.milliseconds(of: spelled)
    else {
      if token.kind == .number {
        throw parser.failure(
          .durationWithoutUnit(spelled), at: token.range,
          help: "write '\(spelled)s' or '\(spelled)ms'")
      }
      throw parser.expectedFailure(
        "a duration (500ms, 10s, 2m)", after: after(), help: "for example 'within 10s'")
    }
    parser.advance()
    return DurationValue(milliseconds: milliseconds, text: spelled, range: token.range)
  }

  /// A header name as written (`Content-Range`, `content-range`, `'X-Total'`): the text up to the
  /// next space.
  static func parseHeaderName(_ parser: inout Parser, after keyword: Token) throws(ParseFailure)
    -> String
  {
    if parser.current.kind.isQuoted {
      return try parser.decodeQuotedName(parser.advance())
    }
    let bytes = parser.source.bytes
    let start = parser.current.start
    var end = start
    while end < bytes.count, !Self.endsHeaderName(bytes[end]) { end += 1 }
    guard end > start, !parser.current.kind.isStatementEnd else {
      throw parser.expectedFailure(
        "a header name", after: "'header'",
        help: "for example: expect header Content-Range == '0-9/42'")
    }
    while !parser.current.kind.isStatementEnd && parser.current.start < end { parser.advance() }
    return String(decoding: bytes[start..<end], as: UTF8.self)
  }

  static func endsHeaderName(_ byte: UInt8) -> Bool {
    byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D || byte == UInt8(ascii: "=")
      || byte == UInt8(ascii: "!") || byte == UInt8(ascii: "<") || byte == UInt8(ascii: ">")
      || byte == UInt8(ascii: ";") || byte == UInt8(ascii: "#")
  }
}
