/// `from <table> <action> [where ...] [modifiers]` and `rpc [get] <fn> [args] [where ...] [modifiers]`.
/// A type of its own over the ``Parser``'s cursor, as ``ConditionParser`` is: each function takes
/// the parser `inout`, so its tokens are never copied.
enum QueryParser {
  static func parseQuery<Builder: TreeBuilder>(_ parser: inout Parser, into builder: inout Builder)
    throws(ParseFailure) -> QueryStatement
  {
    parser.advance()  // from
    let table = try parser.parseTableName(.table, what: "a table name", after: "'from'")
    parser.enterTable(table.name.text)
    var bodyFile: BodyFile?
    let action: QueryAction
    if parser.current.keyword == .insert
      && (parser.peek().keyword == .file || parser.peek().keyword == .csv)
    {
      let keyword = parser.advance()
      let file = try ScriptStatementParser.parseBodyFile(&parser)
      bodyFile = file
      let range = keyword.range.union(file?.range ?? keyword.range)
      action = .insert(body: ValueNode(.object([]), range: range), range: range)
    } else {
      action = try parseAction(&parser, table: table, into: &builder)
    }
    var filter: WhereClause?
    if let whereToken = parser.eat(.where) {
      filter = try parseWhereClause(&parser, after: whereToken, into: &builder)
    }
    var modifiers = Modifiers()
    try ModifierParser.parse(&parser, into: &modifiers, &builder)
    return QueryStatement(
      table: table, action: action, filter: filter, modifiers: modifiers, bodyFile: bodyFile)
  }

  static let actionKeywords = ["select", "insert", "upsert", "update", "put", "delete"]

  private static func parseAction<Builder: TreeBuilder>(
    _ parser: inout Parser, table: TableName, into builder: inout Builder
  )
    throws(ParseFailure) -> QueryAction
  {
    parser.recordKeywords(QueryParser.actionKeywords)
    let start = parser.current.start
    switch parser.current.keyword {
    case .select:
      let keyword = parser.advance()
      if parser.position == parser.cursorToken {
        parser.expected.append(.name(.column(table: parser.tableContext.last)))
      }
      parser.record(.symbol(.star))
      if parser.current.kind.isStatementEnd || parser.current.keyword == .where {
        throw parser.failure(
          .emptySelect,
          at: parser.current.kind.isStatementEnd ? .point(keyword.end) : parser.current.range,
          help: "write 'select *' for every column, or name them: 'select id, name'")
      }
      let items = try SelectListParser.parse(&parser, after: "'select'", into: &builder)
      return .select(items, range: SourceRange(start: start, end: parser.previousEnd))
    case .insert:
      parser.advance()
      let body = try ValueParser.parse(
        &parser,
        after: "'insert'", what: "a JSON object or array to insert", into: &builder)
      return .insert(body: body, range: SourceRange(start: start, end: parser.previousEnd))
    case .upsert:
      parser.advance()
      let body = try ValueParser.parse(
        &parser,
        after: "'upsert'", what: "a JSON object or array to upsert", into: &builder)
      var upsert = UpsertAction(
        body: body, range: SourceRange(start: start, end: parser.previousEnd))
      try parseUpsertOptions(&parser, into: &upsert)
      upsert.range = SourceRange(start: start, end: parser.previousEnd)
      return .upsert(upsert)
    case .update:
      parser.advance()
      let body = try ValueParser.parse(
        &parser,
        after: "'update'", what: "a JSON object of new values", into: &builder)
      return .update(body: body, range: SourceRange(start: start, end: parser.previousEnd))
    case .delete:
      let keyword = parser.advance()
      return .delete(range: keyword.range)
    case .put:
      parser.advance()
      let body = try ValueParser.parse(
        &parser,
        after: "'put'", what: "a JSON object, the whole row", into: &builder)
      return .put(body: body, range: SourceRange(start: start, end: parser.previousEnd))
    default:
      let afterTable = "the table '\(table.name.text)'"
      if parser.current.kind == .word {
        let word = parser.text(parser.current)
        throw parser.failure(
          .expected(
            "an action (select, insert, upsert, put, update or delete)", after: afterTable,
            found: "'\(word)'"
          ),
          at: parser.current.range,
          help: DidYouMean.help(word, among: QueryParser.actionKeywords))
      }
      throw parser.expectedFailure(
        "an action (select, insert, upsert, put, update or delete)", after: afterTable,
        help: "for example 'from \(table.name.text) select *'")
    }
  }

  /// `on conflict a, b` and `ignore duplicates`, in either order.
  private static func parseUpsertOptions(_ parser: inout Parser, into upsert: inout UpsertAction)
    throws(ParseFailure)
  {
    while true {
      if let on = parser.eat(.on) {
        guard upsert.onConflict.isEmpty else {
          throw parser.failure(.duplicateClause("on conflict"), at: on.range)
        }
        try parser.expect(.conflict, after: "'on'")
        repeat {
          upsert.onConflict.append(
            try parser.parseName(
              .column(table: nil), what: "a column name", after: "'on conflict'"))
        } while parser.eat(.comma) != nil
      } else if let ignore = parser.eat(.ignore) {
        guard !upsert.ignoreDuplicates else {
          throw parser.failure(.duplicateClause("ignore duplicates"), at: ignore.range)
        }
        try parser.expect(.duplicates, after: "'ignore'")
        upsert.ignoreDuplicates = true
      } else {
        return
      }
    }
  }

  /// After `where`: `all` (every row, on purpose) or a condition.
  private static func parseWhereClause<Builder: TreeBuilder>(
    _ parser: inout Parser,
    after whereToken: Token, into builder: inout Builder
  ) throws(ParseFailure) -> WhereClause {
    if parser.current.keyword == .all {
      let next = parser.peek()
      if next.kind.isStatementEnd
        || next.keyword.map(ModifierParser.modifierKeywords.contains) == true
      {
        return .all(range: whereToken.range.union(parser.advance().range))
      }
    }
    parser.record(.keyword("all"))
    parser.record(.keyword("not"))
    return .condition(try ConditionParser.parse(&parser, after: "'where'", into: &builder))
  }

  static func parseRPC<Builder: TreeBuilder>(_ parser: inout Parser, into builder: inout Builder)
    throws(ParseFailure) -> RPCStatement
  {
    parser.advance()  // rpc
    var isGet = false
    if parser.current.keyword == .get
      && (parser.peek().kind == .word || parser.peek().kind == .doubleQuoted
        || parser.position + 1 == parser.cursorToken)
    {
      parser.advance()
      isGet = true
    }
    parser.record(.keyword("get"))
    let function = try parser.parseTableName(
      .function, what: "a function name", after: isGet ? "'rpc get'" : "'rpc'")
    parser.enterTable(function.name.text)
    var arguments: ValueNode?
    var filter: Condition?
    parser.record(.symbol(.leftBrace))
    if !parser.current.kind.isStatementEnd && parser.current.kind != .word {
      arguments = try ValueParser.parse(
        &parser, after: "the function name", what: "arguments", into: &builder)
    }
    if let whereToken = parser.eat(.where) {
      switch try parseWhereClause(&parser, after: whereToken, into: &builder) {
      case .condition(let condition): filter = condition
      case .all(let range):
        throw parser.failure(
          .expected("a condition", after: "'where'", found: "'all'"), at: range,
          help: "'where all' is only for update and delete")
      }
    }
    var modifiers = Modifiers()
    try ModifierParser.parse(&parser, into: &modifiers, &builder)
    return RPCStatement(
      function: function, get: isGet, arguments: arguments, filter: filter, modifiers: modifiers)
  }
}
