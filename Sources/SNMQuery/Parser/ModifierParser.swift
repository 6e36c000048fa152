/// `order by`, `limit`, `offset`, `single`, `maybe single`, `count ...`, `returning ...`, in any order.
/// A type of its own over the ``Parser``'s cursor, as ``ConditionParser`` is: each function takes
/// the parser `inout`, so its tokens are never copied.
enum ModifierParser {
  static let modifierKeywords: Set<Keyword> = [
    .order, .limit, .offset, .single, .maybe, .count, .returning, .head, .max, .rollback, .all,
  ]
  static let modifierWords = [
    "order", "limit", "offset", "single", "maybe", "count", "returning", "head", "max",
    "rollback", "plan", "all",
  ]

  /// The `EXPLAIN` options `plan` takes, in PostgREST's order.
  static let planOptions = ["analyze", "verbose", "settings", "buffers", "wal"]

  /// Fills `modifiers` (empty) in place: a returned one was copied out, each field retained.
  static func parse<Builder: TreeBuilder>(
    _ parser: inout Parser,
    into modifiers: inout Modifiers, _ builder: inout Builder
  ) throws(ParseFailure) {
    while true {
      parser.recordKeywords(ModifierParser.modifierWords)
      let start = parser.current
      switch parser.current.keyword {
      case .order:
        parser.advance()
        try parser.expect(.by, after: "'order'")
        guard modifiers.orderRange == nil else {
          throw parser.failure(
            .duplicateClause("order by"), at: start.range.union(.point(parser.previousEnd)),
            help: "list every column in one 'order by a, b desc'")
        }
        repeat {
          modifiers.order.append(try parseOrderItem(&parser))
        } while parser.eat(.comma) != nil
        modifiers.orderRange = SourceRange(start: start.start, end: parser.previousEnd)
      case .limit:
        parser.advance()
        guard modifiers.limit == nil else {
          throw parser.failure(.duplicateClause("limit"), at: start.range)
        }
        modifiers.limit = try ValueParser.parse(
          &parser,
          after: "'limit'", what: "a number of rows", into: &builder)
      case .offset:
        parser.advance()
        guard modifiers.offset == nil else {
          throw parser.failure(.duplicateClause("offset"), at: start.range)
        }
        modifiers.offset = try ValueParser.parse(
          &parser,
          after: "'offset'", what: "a number of rows to skip", into: &builder)
      case .single:
        parser.advance()
        try setSingle(&parser, .single, range: start.range, in: &modifiers)
      case .maybe:
        parser.advance()
        let single = try parser.expect(.single, after: "'maybe'")
        try setSingle(&parser, .maybeSingle, range: start.range.union(single.range), in: &modifiers)
      case .count:
        parser.advance()
        guard modifiers.rare?.count == nil else {
          throw parser.failure(.duplicateClause("count"), at: start.range)
        }
        modifiers.clauses.count = try parseCountMode(&parser)
        modifiers.clauses.countRange = SourceRange(start: start.start, end: parser.previousEnd)
      case .returning:
        parser.advance()
        guard modifiers.rare?.returning == nil else {
          throw parser.failure(.duplicateClause("returning"), at: start.range)
        }
        modifiers.clauses.returning = try SelectListParser.parse(
          &parser, after: "'returning'", into: &builder)
        modifiers.clauses.returningRange = SourceRange(start: start.start, end: parser.previousEnd)
      case .all:
        parser.advance()
        guard modifiers.rare?.all == nil else {
          throw parser.failure(.duplicateClause("all"), at: start.range)
        }
        modifiers.clauses.all = start.range
      case .head, .max, .rollback:
        try ScriptStatementParser.parseGuard(&parser, into: &modifiers)
      case nil
      where parser.current.kind == .word && parser.text(parser.current).lowercased() == "plan":
        parser.advance()
        guard modifiers.rare?.plan == nil else {
          throw parser.failure(.duplicateClause("plan"), at: start.range)
        }
        var options: [String] = []
        while parser.current.kind == .word,
          ModifierParser.planOptions.contains(parser.text(parser.current).lowercased())
        {
          let option = parser.text(parser.advance()).lowercased()
          if !options.contains(option) { options.append(option) }
        }
        modifiers.clauses.plan = ModifierParser.planOptions.filter(options.contains)
        modifiers.clauses.planRange = SourceRange(start: start.start, end: parser.previousEnd)
      default:
        if try ScriptStatementParser.parseOutputFile(&parser, into: &modifiers) { continue }
        try checkForMisplacedClause(&parser)
        return
      }
    }
  }

  private static func setSingle(
    _ parser: inout Parser,
    _ mode: Modifiers.SingleMode, range: SourceRange, in modifiers: inout Modifiers
  ) throws(ParseFailure) {
    if let existing = modifiers.single {
      throw parser.failure(
        existing == mode ? .duplicateClause(mode.rawValue) : .conflictingSingle, at: range)
    }
    modifiers.single = mode
    modifiers.singleRange = range
  }

  private static func parseCountMode(_ parser: inout Parser) throws(ParseFailure)
    -> Modifiers.CountMode
  {
    parser.recordKeywords(Parser.countWords)
    switch parser.current.keyword {
    case .exact: parser.advance(); return .exact
    case .planned: parser.advance(); return .planned
    case .estimated: parser.advance(); return .estimated
    default:
      let help =
        parser.current.kind == .word
        ? DidYouMean.help(parser.text(parser.current), among: Parser.countWords) : nil
      throw parser.expectedFailure("exact, planned or estimated", after: "'count'", help: help)
    }
  }

  /// `column [asc|desc] [nulls first|last]`.
  private static func parseOrderItem(_ parser: inout Parser) throws(ParseFailure) -> OrderItem {
    let column = try SelectListParser.parseColumnPath(&parser, after: "'order by'")
    // The column moved into the item (read after it, it was copied: its names retained).
    let start = column.range.start
    var item = OrderItem(column: consume column, range: .point(start))
    parser.record(.keyword("asc"))
    parser.record(.keyword("desc"))
    if parser.eat(.asc) != nil {
      item.direction = .asc
    } else if parser.eat(.desc) != nil {
      item.direction = .desc
    }
    if parser.eat(.nulls) != nil {
      parser.record(.keyword("first"))
      parser.record(.keyword("last"))
      if parser.eat(.first) != nil {
        item.nulls = .first
      } else if parser.eat(.last) != nil {
        item.nulls = .last
      } else {
        throw parser.expectedFailure("'first' or 'last'", after: "'nulls'")
      }
    } else {
      parser.record(.keyword("nulls"))
    }
    item.range = SourceRange(start: start, end: parser.previousEnd)
    return item
  }

  /// A clause in the wrong place or a misspelled one gets a message that says so.
  private static func checkForMisplacedClause(_ parser: inout Parser) throws(ParseFailure) {
    guard parser.current.kind == .word else { return }
    if parser.current.keyword == .where {
      throw parser.failure(
        .whereAfterModifiers, at: parser.current.range,
        help: "move 'where ...' right after the action")
    }
    if parser.current.keyword == .and || parser.current.keyword == .or { return }
    let word = parser.text(parser.current)
    if let suggestion = DidYouMean.suggest(word, among: ModifierParser.modifierWords + ["where"]) {
      throw parser.failure(
        .unexpectedAfterStatement("'\(word)'"), at: parser.current.range,
        help: "did you mean '\(suggestion)'?")
    }
  }
}
