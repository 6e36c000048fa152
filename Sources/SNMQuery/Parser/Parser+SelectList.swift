/// Select lists (`select ...`, `returning ...`) and column paths (`messages.public`, `data->>blood`).
extension Parser {
  /// A select list as the syntax tree holds it, its embeds' items in the same array.
  mutating func parseSelectList(after: @autoclosure () -> String) throws(ParseFailure)
    -> SelectList
  {
    var builder = ASTBuilder()
    return try parseSelectList(after: after(), into: &builder)
  }

  /// A select list, made by `builder`.
  mutating func parseSelectList<Builder: SyntaxBuilder>(
    after: @autoclosure () -> String, into builder: inout Builder
  ) throws(ParseFailure) -> Builder.Selection {
    var nodes = builder.selection()
    try parseSelectItems(after: after(), into: &nodes, &builder)
    return builder.finish(consume nodes)
  }

  /// One level's items, added to `nodes` (an embed's before its own items).
  mutating func parseSelectItems<Builder: SyntaxBuilder>(
    after: @autoclosure () -> String, into nodes: inout Builder.Items, _ builder: inout Builder
  ) throws(ParseFailure) {
    try parseSelectItem(after: after(), into: &nodes, &builder)
    while eat(.comma) != nil {
      try parseSelectItem(after: "','", into: &nodes, &builder)
    }
  }

  /// Adds an item (an embed and its items) to `nodes`.
  mutating func parseSelectItem<Builder: SyntaxBuilder>(
    after: @autoclosure () -> String, into nodes: inout Builder.Items, _ builder: inout Builder
  ) throws(ParseFailure) {
    let start = current.start
    if let star = eat(.star) { return builder.add(.star(range: star.range), to: &nodes) }
    if eat(.ellipsis) != nil {
      let relation = try parseName(
        .relation(table: tableContext.last), what: "a relation to spread", after: "'...'")
      return try parseEmbed(
        alias: nil, relation: relation, spread: true, start: start, into: &nodes, &builder)
    }
    var name = try parseName(.column(table: tableContext.last), what: "a column", after: after())
    var alias: Name?
    if current.kind == .colon {
      advance()
      alias = name
      name = try parseName(
        .column(table: tableContext.last), what: "a column after the alias",
        after: "'\(name.text):'")
    }
    // The tokens first: comparing every column's name with "count" was a call (the String
    // comparison's slow path) for each item.
    if current.kind == .leftParen && peek().kind == .rightParen && !name.quoted
      && name.text == "count"
    {
      // The bare `count()` aggregate, which may be cast: `total:count()::int`.
      advance()
      advance()
      let cast = try parseCast()
      let field = SelectField(
        alias: alias,
        column: ColumnPath(column: Name("", range: .point(name.range.start)), range: name.range),
        aggregate: name, cast: cast, range: SourceRange(start: start, end: previousEnd))
      return builder.add(.field(field), to: &nodes)
    }
    if at(.leftParen) || at(.bang) {
      return try parseEmbed(
        alias: alias, relation: name, spread: false, start: start, into: &nodes, &builder)
    }
    // Built once from its parts: a field set a part at a time was copied at each step.
    let json = try parseJSONPath()
    var columnRange = SourceRange(start: name.range.start, end: previousEnd)
    // `amount::int.sum()`: a cast before an aggregate casts the column it aggregates.
    var cast = try parseCast()
    var aggregate: Name?
    var inputCast: Name?
    if current.kind == .dot && peek().kind == .word && peek(2).kind == .leftParen {
      advance()
      let function = try parseName(.type, what: "an aggregate", after: "'.'")
      aggregate = function
      advance()  // (
      guard eat(.rightParen) != nil else {
        throw expectedFailure("')'", after: "'\(function.text)('")
      }
      if cast == nil { columnRange.end = previousEnd }
      inputCast = cast
      cast = try parseCast()
    }
    builder.add(
      .field(
        SelectField(
          alias: alias, column: ColumnPath(column: name, json: json, range: columnRange),
          aggregate: aggregate, inputCast: inputCast, cast: cast,
          range: SourceRange(start: start, end: previousEnd))), to: &nodes)
  }

  /// `relation[!hint...](items)`, its items after it; the `(` is required, the items may be none.
  mutating func parseEmbed<Builder: SyntaxBuilder>(
    alias: Name?, relation: Name, spread: Bool, start: Int, into nodes: inout Builder.Items,
    _ builder: inout Builder
  ) throws(ParseFailure) {
    var hints: [Name] = []
    while eat(.bang) != nil {
      record(.keyword("inner"))
      record(.keyword("left"))
      hints.append(try parseName(.type, what: "a join type or foreign key", after: "'!'"))
    }
    guard let open = eat(.leftParen) else {
      throw expectedFailure("'(' and the embedded columns", after: "'\(relation.text)'")
    }
    try enterNesting(open)
    defer { leaveNesting() }
    enterTable(relation.text)
    defer { leaveTable() }
    let embed = SelectEmbed(
      alias: alias, relation: relation, hints: hints, spread: spread,
      range: SourceRange(start: start, end: start))
    let node = builder.open(embed, in: &nodes)
    if current.kind != .rightParen { try parseSelectItems(after: "'('", into: &nodes, &builder) }
    try expectClose(.rightParen, opened: open)
    builder.close(embed, at: node, end: previousEnd, in: &nodes)
  }

  /// `::type`, if written.
  mutating func parseCast() throws(ParseFailure) -> Name? {
    eat(.doubleColon) == nil ? nil : try parseName(.type, what: "a type", after: "'::'")
  }

  /// `)`, `]` or `}` closing `open`, or a failure that points at both.
  mutating func expectClose(_ kind: TokenKind, opened open: Token) throws(ParseFailure) {
    if eat(kind) != nil { return }
    if current.kind.isError { throw tokenFailure(current) }
    let openText = text(open)
    let close = String(kind.spelling.dropFirst().dropLast())
    let range = current.kind.isStatementEnd ? SourceRange.point(previousEnd) : current.range
    throw failure(
      .unclosed(openText, close: close, found: describe(current)), at: range,
      notes: [Diagnostic.Note("'\(openText)' opened here", at: open.range)])
  }

  /// `->key` / `->>key` steps; keys are names, numbers (`0`, `-1`) or quoted strings.
  @inline(__always) mutating func parseJSONPath() throws(ParseFailure) -> [JSONPathStep] {
    // Most columns have no path: one look at the token (unless completing here), inlined where
    // it is asked for (a call to the whole function saved and restored its registers, about 30
    // instructions a column, to return nothing).
    if position != cursorToken && current.kind != .arrow && current.kind != .doubleArrow {
      return []
    }
    return try parseJSONSteps()
  }

  /// The steps of `parseJSONPath()`, from the current token on.
  mutating func parseJSONSteps() throws(ParseFailure) -> [JSONPathStep] {
    var steps: [JSONPathStep] = []
    while at(.arrow) || at(.doubleArrow) {
      let arrow = advance()
      let asText = arrow.kind == .doubleArrow
      let token = current
      switch token.kind {
      case .word, .number:
        advance()
        steps.append(JSONPathStep(asText: asText, key: text(token)))
      case .singleQuoted, .doubleQuoted:
        advance()
        steps.append(JSONPathStep(asText: asText, key: try decodeQuotedName(token), quoted: true))
      default:
        throw expectedFailure("a JSON key or index", after: "'\(text(arrow))'")
      }
    }
    return steps
  }

  /// `[embed.]*column[->path]`: in `where` and `order by`, a dotted name filters or orders an embed.
  mutating func parseColumnPath(after: @autoclosure () -> String) throws(ParseFailure) -> ColumnPath
  {
    var column = try parseName(.column(table: tableContext.last), what: "a column", after: after())
    // Most columns have no embed path: no array is made for them.
    var names: [Name] = []
    while current.kind == .dot && peek().start == current.end {
      advance()
      let embed = column.text
      names.append(column)
      column = try parseName(.column(table: embed), what: "a column", after: "'\(embed).'")
    }
    let json = try parseJSONPath()
    let start = names.first?.range.start ?? column.range.start
    return ColumnPath(
      embedPath: names, column: column, json: json,
      range: SourceRange(start: start, end: previousEnd))
  }
}
