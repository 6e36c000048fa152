/// `where` trees: `or` binds loosest, then `and`, then `not`; parentheses group. Each tree is built
/// into one `ConditionBuilder` (nodes by index), children before their parent.
extension Parser {
  mutating func parseCondition(after: @autoclosure () -> String) throws(ParseFailure) -> Condition {
    var tree = ConditionBuilder()
    let root = try parseJoined(by: .or, after: after(), into: &tree)
    return tree.condition(root)
  }

  /// `a or b or ...` over `and` operands, `a and b and ...` over `not` operands; one operand
  /// without the joining word is itself.
  private mutating func parseJoined(
    by joiner: Keyword, after: @autoclosure () -> String, into tree: inout ConditionBuilder
  ) throws(ParseFailure) -> Int {
    let word = joiner.rawValue
    let first = try parseOperand(of: joiner, after: after(), into: &tree)
    guard current.keyword == joiner else {
      record(.keyword(word))
      return first
    }
    var last = first
    while eat(joiner) != nil {
      let operand = try parseOperand(of: joiner, after: "'\(word)'", into: &tree)
      tree.link(last, to: operand)
      last = operand
    }
    let range = SourceRange(start: tree.range(of: first).start, end: previousEnd)
    return tree.add(joiner == .or ? .or : .and, first: first, range: range)
  }

  private mutating func parseOperand(
    of joiner: Keyword, after: @autoclosure () -> String, into tree: inout ConditionBuilder
  ) throws(ParseFailure) -> Int {
    joiner == .or
      ? try parseJoined(by: .and, after: after(), into: &tree)
      : try parseNot(after: after(), into: &tree)
  }

  mutating func parseNot(
    after: @autoclosure () -> String, into tree: inout ConditionBuilder
  ) throws(ParseFailure) -> Int {
    if current.keyword == .not && !peekIsOperator() {
      let not = advance()
      try enterNesting(not)
      defer { leaveNesting() }
      let operand = try parseNot(after: "'not'", into: &tree)
      return tree.add(.not, first: operand, range: SourceRange(start: not.start, end: previousEnd))
    }
    if let open = eat(.leftParen) {
      try enterNesting(open)
      defer { leaveNesting() }
      let inner = try parseJoined(by: .or, after: "'('", into: &tree)
      try expectClose(.rightParen, opened: open)
      return inner
    }
    return tree.add(try parsePredicate(after: after()))
  }

  /// Whether the token after the current one is an operator (so the current word is a column: `not eq 1`).
  func peekIsOperator() -> Bool {
    let next = peek()
    if FilterOperator(symbol: next.kind) != nil { return true }
    guard let keyword = next.keyword else { return false }
    return FilterOperator(keyword: keyword) != nil && peek(2).kind != .dot
  }

  /// `column [not] operator[(config)] [any|all] value`, or `column is [not] null|true|false|unknown`.
  mutating func parsePredicate(after: @autoclosure () -> String) throws(ParseFailure)
    -> FilterPredicate
  {
    let column = try parseColumnPath(after: after())
    var negated = false
    if eat(.not) != nil { negated = true }
    record(.keyword("not"))
    let operatorToken = current
    let op = try parseOperator(after: column)
    if op == .is {
      if eat(.not) != nil { negated.toggle() }
      let value = try parseIsValue()
      return FilterPredicate(
        column: column, negated: negated, op: .is, value: value,
        operatorRange: operatorToken.range,
        range: SourceRange(start: column.range.start, end: previousEnd))
    }
    var config: Name?
    if op.isTextSearch, current.kind == .leftParen {
      let open = advance()
      config = try parseName(
        .config, what: "a text search configuration", after: "'\(op.rawValue)('")
      try expectClose(.rightParen, opened: open)
    }
    var quantifier: FilterPredicate.Quantifier?
    let quantifierToken = current
    if eat(.any) != nil {
      quantifier = .any
    } else if eat(.all) != nil {
      quantifier = .all
    }
    if let quantifier, !op.takesQuantifier {
      throw failure(
        .quantifierNotAllowed(text(operatorToken), quantifier.rawValue), at: quantifierToken.range,
        help: "'any' and 'all' follow eq, gt, gte, lt, lte, like, ilike, match and imatch")
    }
    let operatorEnd = previousEnd
    // The bytes, not a copy of the source (three retains and releases a predicate).
    let bytes = source.bytes
    let value = try parseValue(
      after: "'\(String(decoding: bytes[operatorToken.start..<operatorEnd], as: UTF8.self))'",
      what: op == .in ? "a list in parentheses" : "a value")
    return FilterPredicate(
      column: column, negated: negated, op: op, quantifier: quantifier, config: config,
      value: value,
      operatorRange: SourceRange(start: operatorToken.start, end: operatorEnd),
      range: SourceRange(start: column.range.start, end: previousEnd))
  }

  mutating func parseOperator(after column: ColumnPath) throws(ParseFailure) -> FilterOperator {
    record(.symbol(.equal))
    recordKeywords(FilterOperator.words)
    if let op = FilterOperator(symbol: current.kind) {
      advance()
      return op
    }
    if let keyword = current.keyword, let op = FilterOperator(keyword: keyword) {
      advance()
      return op
    }
    if current.kind == .word {
      let word = text(current)
      throw failure(
        .unknownOperator(word), at: current.range,
        help: DidYouMean.help(word, among: FilterOperator.words)
          ?? "operators: eq =, neq !=, gt >, gte >=, lt <, lte <=, like, ilike, in, is, cs, fts, ..."
      )
    }
    let columnText = source.text(of: column.range)
    throw expectedFailure(
      "an operator (eq, gt, like, in, is, ...)", after: "'\(columnText)'",
      help: "for example '\(columnText) eq 1'")
  }

  /// After `is [not]`: null, true, false or unknown.
  mutating func parseIsValue() throws(ParseFailure) -> ValueNode {
    recordKeywords(Parser.isValueWords)
    let token = current
    switch token.keyword {
    case .null:
      advance()
      return ValueNode(.null, range: token.range)
    case .true, .false:
      advance()
      return ValueNode(.bool(token.keyword == .true), range: token.range)
    default:
      if token.kind == .word, text(token).lowercased() == "unknown" {
        advance()
        return ValueNode(.word("unknown"), range: token.range)
      }
      if token.kind.isStatementEnd {
        throw expectedFailure("null, true, false or unknown", after: "'is'")
      }
      if token.kind.isError { throw tokenFailure(token) }
      throw failure(
        .invalidIsValue(describe(token)), at: token.range,
        help: "to compare with a value, use eq: 'eq \(text(token))'")
    }
  }
}
