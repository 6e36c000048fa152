/// `from <table> <action> [where ...] [modifiers]` and `rpc [get] <fn> [args] [where ...] [modifiers]`.
extension Parser {
  mutating func parseQuery<Builder: TreeBuilder>(into builder: inout Builder)
    throws(ParseFailure) -> QueryStatement
  {
    advance()  // from
    let table = try parseTableName(.table, what: "a table name", after: "'from'")
    enterTable(table.name.text)
    var bodyFile: BodyFile?
    let action: QueryAction
    if current.keyword == .insert && (peek().keyword == .file || peek().keyword == .csv) {
      let keyword = advance()
      let file = try ScriptStatementParser.parseBodyFile(&self)
      bodyFile = file
      let range = keyword.range.union(file?.range ?? keyword.range)
      action = .insert(body: ValueNode(.object([]), range: range), range: range)
    } else {
      action = try parseAction(table: table, into: &builder)
    }
    var filter: WhereClause?
    if let whereToken = eat(.where) {
      filter = try parseWhereClause(after: whereToken, into: &builder)
    }
    var modifiers = Modifiers()
    try parseModifiers(into: &modifiers, &builder)
    return QueryStatement(
      table: table, action: action, filter: filter, modifiers: modifiers, bodyFile: bodyFile)
  }

  static let actionKeywords = ["select", "insert", "upsert", "update", "put", "delete"]

  mutating func parseAction<Builder: TreeBuilder>(table: TableName, into builder: inout Builder)
    throws(ParseFailure) -> QueryAction
  {
    recordKeywords(Parser.actionKeywords)
    let start = current.start
    switch current.keyword {
    case .select:
      let keyword = advance()
      if position == cursorToken { expected.append(.name(.column(table: tableContext.last))) }
      record(.symbol(.star))
      if current.kind.isStatementEnd || current.keyword == .where {
        throw failure(
          .emptySelect, at: current.kind.isStatementEnd ? .point(keyword.end) : current.range,
          help: "write 'select *' for every column, or name them: 'select id, name'")
      }
      let items = try parseSelectList(after: "'select'", into: &builder)
      return .select(items, range: SourceRange(start: start, end: previousEnd))
    case .insert:
      advance()
      let body = try parseValue(
        after: "'insert'", what: "a JSON object or array to insert", into: &builder)
      return .insert(body: body, range: SourceRange(start: start, end: previousEnd))
    case .upsert:
      advance()
      let body = try parseValue(
        after: "'upsert'", what: "a JSON object or array to upsert", into: &builder)
      var upsert = UpsertAction(body: body, range: SourceRange(start: start, end: previousEnd))
      try parseUpsertOptions(into: &upsert)
      upsert.range = SourceRange(start: start, end: previousEnd)
      return .upsert(upsert)
    case .update:
      advance()
      let body = try parseValue(
        after: "'update'", what: "a JSON object of new values", into: &builder)
      return .update(body: body, range: SourceRange(start: start, end: previousEnd))
    case .delete:
      let keyword = advance()
      return .delete(range: keyword.range)
    case .put:
      advance()
      let body = try parseValue(
        after: "'put'", what: "a JSON object, the whole row", into: &builder)
      return .put(body: body, range: SourceRange(start: start, end: previousEnd))
    default:
      let afterTable = "the table '\(table.name.text)'"
      if current.kind == .word {
        let word = text(current)
        throw failure(
          .expected(
            "an action (select, insert, upsert, put, update or delete)", after: afterTable,
            found: "'\(word)'"
          ),
          at: current.range,
          help: DidYouMean.help(word, among: Parser.actionKeywords))
      }
      throw expectedFailure(
        "an action (select, insert, upsert, put, update or delete)", after: afterTable,
        help: "for example 'from \(table.name.text) select *'")
    }
  }

  /// `on conflict a, b` and `ignore duplicates`, in either order.
  mutating func parseUpsertOptions(into upsert: inout UpsertAction) throws(ParseFailure) {
    while true {
      if let on = eat(.on) {
        guard upsert.onConflict.isEmpty else {
          throw failure(.duplicateClause("on conflict"), at: on.range)
        }
        try expect(.conflict, after: "'on'")
        repeat {
          upsert.onConflict.append(
            try parseName(
              .column(table: tableContext.last), what: "a column name", after: "'on conflict'"))
        } while eat(.comma) != nil
      } else if let ignore = eat(.ignore) {
        guard !upsert.ignoreDuplicates else {
          throw failure(.duplicateClause("ignore duplicates"), at: ignore.range)
        }
        try expect(.duplicates, after: "'ignore'")
        upsert.ignoreDuplicates = true
      } else {
        return
      }
    }
  }

  /// After `where`: `all` (every row, on purpose) or a condition.
  mutating func parseWhereClause<Builder: TreeBuilder>(
    after whereToken: Token, into builder: inout Builder
  ) throws(ParseFailure) -> WhereClause {
    if current.keyword == .all {
      let next = peek()
      if next.kind.isStatementEnd || next.keyword.map(Parser.modifierKeywords.contains) == true {
        return .all(range: whereToken.range.union(advance().range))
      }
    }
    record(.keyword("all"))
    record(.keyword("not"))
    return .condition(try ConditionParser.parse(&self, after: "'where'", into: &builder))
  }

  mutating func parseRPC<Builder: TreeBuilder>(into builder: inout Builder)
    throws(ParseFailure) -> RPCStatement
  {
    advance()  // rpc
    var isGet = false
    if current.keyword == .get
      && (peek().kind == .word || peek().kind == .doubleQuoted || position + 1 == cursorToken)
    {
      advance()
      isGet = true
    }
    record(.keyword("get"))
    let function = try parseTableName(
      .function, what: "a function name", after: isGet ? "'rpc get'" : "'rpc'")
    enterTable(function.name.text)
    var arguments: ValueNode?
    var filter: Condition?
    record(.symbol(.leftBrace))
    if !current.kind.isStatementEnd && current.kind != .word {
      arguments = try parseValue(after: "the function name", what: "arguments", into: &builder)
    }
    if let whereToken = eat(.where) {
      switch try parseWhereClause(after: whereToken, into: &builder) {
      case .condition(let condition): filter = condition
      case .all(let range):
        throw failure(
          .expected("a condition", after: "'where'", found: "'all'"), at: range,
          help: "'where all' is only for update and delete")
      }
    }
    var modifiers = Modifiers()
    try parseModifiers(into: &modifiers, &builder)
    return RPCStatement(
      function: function, get: isGet, arguments: arguments, filter: filter, modifiers: modifiers)
  }
}
