/// `where` trees: `or` binds loosest, then `and`, then `not`; parentheses group. Each tree is built
/// into one `ConditionBuilder` (nodes by index), children before their parent.
/// A type of its own over the ``Parser``'s cursor, as ``StorageStatementParser`` is: each function
/// takes the parser `inout`, so its tokens are never copied.
enum ConditionParser {
  /// A `where` tree as the syntax tree holds it.
  static func parse(_ parser: inout Parser, after: @autoclosure () -> String) throws(ParseFailure)
    -> Condition
  {
    var builder = ASTBuilder()
    return try parse(&parser, after: after(), into: &builder)
  }

  /// A `where` tree, made by `builder`.
  static func parse<Builder: SyntaxBuilder>(
    _ parser: inout Parser, after: @autoclosure () -> String, into builder: inout Builder
  ) throws(ParseFailure) -> Builder.Filter {
    var tree = builder.tree()
    let root = try parseOr(&parser, after: after(), into: &tree, &builder)
    return builder.filter(consume tree, root: root)
  }

  /// `a or b or ...` over `and` operands (``parseAnd``, inlined here: a function of each level
  /// was a call for each, four frames for a lone predicate).
  private static func parseOr<Builder: SyntaxBuilder>(
    _ parser: inout Parser, after: @autoclosure () -> String, into tree: inout Builder.Tree,
    _ builder: inout Builder
  ) throws(ParseFailure) -> Int {
    let first = try parseAnd(&parser, after: after(), into: &tree, &builder)
    return try joined(first, by: .or, &parser, into: &tree, &builder) {
      (parser: inout Parser, tree: inout Builder.Tree, builder: inout Builder)
        throws(ParseFailure) -> Int in
      try parseAnd(&parser, after: "'or'", into: &tree, &builder)
    }
  }

  /// `a and b and ...` over `not` operands.
  @inline(__always) private static func parseAnd<Builder: SyntaxBuilder>(
    _ parser: inout Parser, after: @autoclosure () -> String, into tree: inout Builder.Tree,
    _ builder: inout Builder
  ) throws(ParseFailure) -> Int {
    let first = try parseNot(&parser, after: after(), into: &tree, &builder)
    return try joined(first, by: .and, &parser, into: &tree, &builder) {
      (parser: inout Parser, tree: inout Builder.Tree, builder: inout Builder)
        throws(ParseFailure) -> Int in
      try parseNot(&parser, after: "'and'", into: &tree, &builder)
    }
  }

  /// `first` and the operands that follow it, each after `joiner` and read by `operand`, joined;
  /// `first` itself when no `joiner` follows it.
  @inline(__always) private static func joined<Builder: SyntaxBuilder>(
    _ first: Int, by joiner: Keyword, _ parser: inout Parser, into tree: inout Builder.Tree,
    _ builder: inout Builder,
    operand: (inout Parser, inout Builder.Tree, inout Builder) throws(ParseFailure) -> Int
  ) throws(ParseFailure) -> Int {
    // The joiner's word is spelled only where it is read (completion, a message): spelled
    // first, it was a call for every operand of every tree.
    guard parser.current.keyword == joiner else {
      parser.record(.keyword(joiner.rawValue))
      return first
    }
    var last = first
    while parser.eat(joiner) != nil {
      let next = try operand(&parser, &tree, &builder)
      builder.link(last, to: next, in: &tree)
      last = next
    }
    let range = SourceRange(
      start: builder.range(of: first, in: &tree).start, end: parser.previousEnd)
    return builder.join(joiner == .or ? .or : .and, first: first, range: range, into: &tree)
  }

  private static func parseNot<Builder: SyntaxBuilder>(
    _ parser: inout Parser, after: @autoclosure () -> String, into tree: inout Builder.Tree,
    _ builder: inout Builder
  ) throws(ParseFailure) -> Int {
    if parser.current.keyword == .not && !peekIsOperator(parser) {
      let not = parser.advance()
      try parser.enterNesting(not)
      defer { parser.leaveNesting() }
      let operand = try parseNot(&parser, after: "'not'", into: &tree, &builder)
      return builder.join(
        .not, first: operand, range: SourceRange(start: not.start, end: parser.previousEnd),
        into: &tree)
    }
    if let open = parser.eat(.leftParen) {
      try parser.enterNesting(open)
      defer { parser.leaveNesting() }
      let inner = try parseOr(&parser, after: "'('", into: &tree, &builder)
      try parser.expectClose(.rightParen, opened: open)
      return inner
    }
    return try parsePredicate(&parser, after: after(), into: &tree, &builder)
  }

  /// Whether the token after the current one is an operator (so the current word is a column: `not eq 1`).
  private static func peekIsOperator(_ parser: Parser) -> Bool {
    let next = parser.peek()
    if FilterOperator(symbol: next.kind) != nil { return true }
    guard let keyword = next.keyword else { return false }
    return FilterOperator(keyword: keyword) != nil && parser.peek(2).kind != .dot
  }

  /// `column [not] operator[(config)] [any|all] value`, or `column is [not] null|true|false|unknown`,
  /// added to `tree`; its node.
  /// Inlined into ``parseNot``, its one caller.
  @inline(__always) private static func parsePredicate<Builder: SyntaxBuilder>(
    _ parser: inout Parser, after: @autoclosure () -> String, into tree: inout Builder.Tree,
    _ builder: inout Builder
  ) throws(ParseFailure) -> Int {
    let column = try SelectListParser.parseColumnPath(&parser, after: after())
    var negated = false
    if parser.eat(.not) != nil { negated = true }
    parser.record(.keyword("not"))
    let operatorToken = parser.current
    let op = try parseOperator(&parser, after: column)
    if op == .is {
      if parser.eat(.not) != nil { negated.toggle() }
      let value = try parseIsValue(&parser, &builder)
      let range = SourceRange(start: column.range.start, end: parser.previousEnd)
      return builder.predicate(
        column: column, negated: negated, op: .is, quantifier: nil, config: nil,
        value: consume value, operatorRange: operatorToken.range, range: range, into: &tree)
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
    let what = op == .in ? "a list in parentheses" : "a value"
    // No value here: the message is made here, with the operator as written, where nothing else
    // holds the parser. Handed down to ValueParser.parse for its own failure, the message held
    // the source's bytes (a retain of three and its release, every predicate).
    guard ValueParser.startsValue(parser.current.kind) else {
      parser.record(.value)
      parser.record(.symbol(.variable))
      let written = parser.source.text(
        of: SourceRange(start: operatorToken.start, end: operatorEnd))
      throw parser.expectedFailure(what, after: "'\(written)'")
    }
    // `after` is never read: the token starts a value.
    let value = try ValueParser.parse(&parser, after: "", what: what, into: &builder)
    let range = SourceRange(start: column.range.start, end: parser.previousEnd)
    return builder.predicate(
      column: column, negated: negated, op: op, quantifier: quantifier, config: config,
      value: consume value,
      operatorRange: SourceRange(start: operatorToken.start, end: operatorEnd),
      range: range, into: &tree)
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
  private static func parseIsValue<Builder: SyntaxBuilder>(
    _ parser: inout Parser, _ builder: inout Builder
  ) throws(ParseFailure) -> Builder.Value {
    parser.recordKeywords(Parser.isValueWords)
    let token = parser.current
    switch token.keyword {
    case .null:
      parser.advance()
      return builder.null(range: token.range)
    case .true, .false:
      parser.advance()
      return builder.bool(token.keyword == .true, range: token.range)
    default:
      if token.kind == .word, parser.text(token).lowercased() == "unknown" {
        parser.advance()
        return builder.word("unknown", range: token.range)
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
