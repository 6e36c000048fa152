/// `order by`, `limit`, `offset`, `single`, `maybe single`, `count ...`, `returning ...`, in any order.
extension Parser {
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
  mutating func parseModifiers<Builder: TreeBuilder>(
    into modifiers: inout Modifiers, _ builder: inout Builder
  ) throws(ParseFailure) {
    while true {
      recordKeywords(Parser.modifierWords)
      let start = current
      switch current.keyword {
      case .order:
        advance()
        try expect(.by, after: "'order'")
        guard modifiers.orderRange == nil else {
          throw failure(
            .duplicateClause("order by"), at: start.range.union(.point(previousEnd)),
            help: "list every column in one 'order by a, b desc'")
        }
        repeat {
          modifiers.order.append(try parseOrderItem())
        } while eat(.comma) != nil
        modifiers.orderRange = SourceRange(start: start.start, end: previousEnd)
      case .limit:
        advance()
        guard modifiers.limit == nil else {
          throw failure(.duplicateClause("limit"), at: start.range)
        }
        modifiers.limit = try parseValue(
          after: "'limit'", what: "a number of rows", into: &builder)
      case .offset:
        advance()
        guard modifiers.offset == nil else {
          throw failure(.duplicateClause("offset"), at: start.range)
        }
        modifiers.offset = try parseValue(
          after: "'offset'", what: "a number of rows to skip", into: &builder)
      case .single:
        advance()
        try setSingle(.single, range: start.range, in: &modifiers)
      case .maybe:
        advance()
        let single = try expect(.single, after: "'maybe'")
        try setSingle(.maybeSingle, range: start.range.union(single.range), in: &modifiers)
      case .count:
        advance()
        guard modifiers.rare?.count == nil else {
          throw failure(.duplicateClause("count"), at: start.range)
        }
        modifiers.clauses.count = try parseCountMode()
        modifiers.clauses.countRange = SourceRange(start: start.start, end: previousEnd)
      case .returning:
        advance()
        guard modifiers.rare?.returning == nil else {
          throw failure(.duplicateClause("returning"), at: start.range)
        }
        modifiers.clauses.returning = try parseSelectList(after: "'returning'", into: &builder)
        modifiers.clauses.returningRange = SourceRange(start: start.start, end: previousEnd)
      case .all:
        advance()
        guard modifiers.rare?.all == nil else {
          throw failure(.duplicateClause("all"), at: start.range)
        }
        modifiers.clauses.all = start.range
      case .head, .max, .rollback:
        try ScriptStatementParser.parseGuard(&self, into: &modifiers)
      case nil where current.kind == .word && text(current).lowercased() == "plan":
        advance()
        guard modifiers.rare?.plan == nil else {
          throw failure(.duplicateClause("plan"), at: start.range)
        }
        var options: [String] = []
        while current.kind == .word, Parser.planOptions.contains(text(current).lowercased()) {
          let option = text(advance()).lowercased()
          if !options.contains(option) { options.append(option) }
        }
        modifiers.clauses.plan = Parser.planOptions.filter(options.contains)
        modifiers.clauses.planRange = SourceRange(start: start.start, end: previousEnd)
      default:
        if try ScriptStatementParser.parseOutputFile(&self, into: &modifiers) { continue }
        try checkForMisplacedClause()
        return
      }
    }
  }

  mutating func setSingle(
    _ mode: Modifiers.SingleMode, range: SourceRange, in modifiers: inout Modifiers
  ) throws(ParseFailure) {
    if let existing = modifiers.single {
      throw failure(
        existing == mode ? .duplicateClause(mode.rawValue) : .conflictingSingle, at: range)
    }
    modifiers.single = mode
    modifiers.singleRange = range
  }

  mutating func parseCountMode() throws(ParseFailure) -> Modifiers.CountMode {
    recordKeywords(Parser.countWords)
    switch current.keyword {
    case .exact: advance(); return .exact
    case .planned: advance(); return .planned
    case .estimated: advance(); return .estimated
    default:
      let help =
        current.kind == .word
        ? DidYouMean.help(text(current), among: Parser.countWords) : nil
      throw expectedFailure("exact, planned or estimated", after: "'count'", help: help)
    }
  }

  /// `column [asc|desc] [nulls first|last]`.
  mutating func parseOrderItem() throws(ParseFailure) -> OrderItem {
    let column = try parseColumnPath(after: "'order by'")
    var item = OrderItem(column: column, range: column.range)
    record(.keyword("asc"))
    record(.keyword("desc"))
    if eat(.asc) != nil {
      item.direction = .asc
    } else if eat(.desc) != nil {
      item.direction = .desc
    }
    if eat(.nulls) != nil {
      record(.keyword("first"))
      record(.keyword("last"))
      if eat(.first) != nil {
        item.nulls = .first
      } else if eat(.last) != nil {
        item.nulls = .last
      } else {
        throw expectedFailure("'first' or 'last'", after: "'nulls'")
      }
    } else {
      record(.keyword("nulls"))
    }
    item.range = SourceRange(start: column.range.start, end: previousEnd)
    return item
  }

  /// A clause in the wrong place or a misspelled one gets a message that says so.
  mutating func checkForMisplacedClause() throws(ParseFailure) {
    guard current.kind == .word else { return }
    if current.keyword == .where {
      throw failure(
        .whereAfterModifiers, at: current.range,
        help: "move 'where ...' right after the action")
    }
    if current.keyword == .and || current.keyword == .or { return }
    let word = text(current)
    if let suggestion = DidYouMean.suggest(word, among: Parser.modifierWords + ["where"]) {
      throw failure(
        .unexpectedAfterStatement("'\(word)'"), at: current.range,
        help: "did you mean '\(suggestion)'?")
    }
  }
}
