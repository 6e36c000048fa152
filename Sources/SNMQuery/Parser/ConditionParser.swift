/// `where` trees: `or` binds loosest, then `and`, then `not`; parentheses group. Each tree is built
/// into one `ConditionBuilder` (nodes by index), children before their parent.
/// A type of its own over the ``Parser``'s cursor, as ``StorageStatementParser`` is: each function
/// takes the parser `inout`, so its tokens are never copied.
enum ConditionParser {
  static func parse(_ parser: inout Parser, after: @autoclosure () -> String) throws(ParseFailure)
    -> Condition
  {
    var tree = ConditionBuilder()
    let root = try parseJoined(&parser, by: .or, after: after(), into: &tree)
    return tree.condition(root)
  }

  /// `a or b or ...` over `and` operands, `a and b and ...` over `not` operands; one operand
  /// without the joining word is itself.
  private static func parseJoined(
    _ parser: inout Parser, by joiner: Keyword, after: @autoclosure () -> String,
    into tree: inout ConditionBuilder
  ) throws(ParseFailure) -> Int {
    let word = joiner.rawValue
    let first = try parseOperand(&parser, of: joiner, after: after(), into: &tree)
    guard parser.current.keyword == joiner else {
      parser.record(.keyword(word))
      return first
    }
    var last = first
    while parser.eat(joiner) != nil {
      let operand = try parseOperand(&parser, of: joiner, after: "'\(word)'", into: &tree)
      tree.link(last, to: operand)
      last = operand
    }
    let range = SourceRange(start: tree.range(of: first).start, end: parser.previousEnd)
    return tree.add(joiner == .or ? .or : .and, first: first, range: range)
  }

  private static func parseOperand(
    _ parser: inout Parser, of joiner: Keyword, after: @autoclosure () -> String,
    into tree: inout ConditionBuilder
  ) throws(ParseFailure) -> Int {
    joiner == .or
      ? try parseJoined(&parser, by: .and, after: after(), into: &tree)
      : try parseNot(&parser, after: after(), into: &tree)
  }

  private static func parseNot(
    _ parser: inout Parser, after: @autoclosure () -> String, into tree: inout ConditionBuilder
  ) throws(ParseFailure) -> Int {
    if parser.current.keyword == .not && !peekIsOperator(parser) {
      let not = parser.advance()
      try parser.enterNesting(not)
      defer { parser.leaveNesting() }
      let operand = try parseNot(&parser, after: "'not'", into: &tree)
      return tree.add(
        .not, first: operand, range: SourceRange(start: not.start, end: parser.previousEnd))
    }
    if let open = parser.eat(.leftParen) {
      try parser.enterNesting(open)
      defer { parser.leaveNesting() }
      let inner = try parseJoined(&parser, by: .or, after: "'('", into: &tree)
      try parser.expectClose(.rightParen, opened: open)
      return inner
    }
    return tree.add(try parsePredicate(&parser, after: after()))
  }

  /// Whether the token after the current one is an operator (so the current word is a column: `not eq 1`).
  private static func peekIsOperator(_ parser: Parser) -> Bool {
    let next = parser.peek()
    if FilterOperator(symbol: next.kind) != nil { return true }
    guard let keyword = next.keyword else { return false }
    return FilterOperator(keyword: keyword) != nil && parser.peek(2).kind != .dot
  }

  /// `column [not] operator[(config)] [any|all] value`, or `column is [not] null|true|false|unknown`.
  private static func parsePredicate(_ parser: inout Parser, after: @autoclosure () -> String)
    throws(ParseFailure) -> FilterPredicate
  {
    let column = try parser.parseColumnPath(after: after())
    var negated = false
    if parser.eat(.not) != nil { negated = true }
    parser.record(.keyword("not"))
    let operatorToken = parser.current
    let op = try parseOperator(&parser, after: column)
    if op == .is {
      if parser.eat(.not) != nil { negated.toggle() }
      let value = try parseIsValue(&parser)
      return FilterPredicate(
        column: column, negated: negated, op: .is, value: value,
        operatorRange: operatorToken.range,
        range: SourceRange(start: column.range.start, end: parser.previousEnd))
    }
    var config: Name?
    if op.isTextSearch, parser.current.kind == .leftParen {
      let open = parser.advance()
      config = try parser.parseName(
        .config, what: "a text search configuration", after: "'\(op.rawValue)('")
      try parser.expectClose(.rightParen, opened: open)
    }
    var quantifier: FilterPredicate.Quantifier?
    let quantifierToken = parser.current
    if parser.eat(.any) != nil {
      quantifier = .any
    } else if parser.eat(.all) != nil {
      quantifier = .all
    }
    if let quantifier, !op.takesQuantifier {
      throw parser.failure(
        .quantifierNotAllowed(parser.text(operatorToken), quantifier.rawValue),
        at: quantifierToken.range,
        help: "'any' and 'all' follow eq, gt, gte, lt, lte, like, ilike, match and imatch")
    }
    let operatorEnd = parser.previousEnd
    // The bytes, not a copy of the source (three retains and releases a predicate).
    let bytes = parser.source.bytes
    let value = try parser.parseValue(
      after: "'\(String(decoding: bytes[operatorToken.start..<operatorEnd], as: UTF8.self))'",
      what: op == .in ? "a list in parentheses" : "a value")
    return FilterPredicate(
      column: column, negated: negated, op: op, quantifier: quantifier, config: config,
      value: value,
      operatorRange: SourceRange(start: operatorToken.start, end: operatorEnd),
      range: SourceRange(start: column.range.start, end: parser.previousEnd))
  }

  private static func parseOperator(_ parser: inout Parser, after column: ColumnPath)
    throws(ParseFailure) -> FilterOperator
  {
    parser.record(.symbol(.equal))
    parser.recordKeywords(FilterOperator.words)
    if let op = FilterOperator(symbol: parser.current.kind) {
      parser.advance()
      return op
    }
    if let keyword = parser.current.keyword, let op = FilterOperator(keyword: keyword) {
      parser.advance()
      return op
    }
    if parser.current.kind == .word {
      let word = parser.text(parser.current)
      throw parser.failure(
        .unknownOperator(word), at: parser.current.range,
        help: DidYouMean.help(word, among: FilterOperator.words)
          ?? "operators: eq =, neq !=, gt >, gte >=, lt <, lte <=, like, ilike, in, is, cs, fts, ..."
      )
    }
    let columnText = parser.source.text(of: column.range)
    throw parser.expectedFailure(
      "an operator (eq, gt, like, in, is, ...)", after: "'\(columnText)'",
      help: "for example '\(columnText) eq 1'")
  }

  /// After `is [not]`: null, true, false or unknown.
  private static func parseIsValue(_ parser: inout Parser) throws(ParseFailure) -> ValueNode {
    parser.recordKeywords(Parser.isValueWords)
    let token = parser.current
    switch token.keyword {
    case .null:
      parser.advance()
      return ValueNode(.null, range: token.range)
    case .true, .false:
      parser.advance()
      return ValueNode(.bool(token.keyword == .true), range: token.range)
    default:
      if token.kind == .word, parser.text(token).lowercased() == "unknown" {
        parser.advance()
        return ValueNode(.word("unknown"), range: token.range)
      }
      if token.kind.isStatementEnd {
        throw parser.expectedFailure("null, true, false or unknown", after: "'is'")
      }
      if token.kind.isError { throw parser.tokenFailure(token) }
      throw parser.failure(
        .invalidIsValue(parser.describe(token)), at: token.range,
        help: "to compare with a value, use eq: 'eq \(parser.text(token))'")
    }
  }
}
