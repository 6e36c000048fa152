/// Select lists (`select ...`, `returning ...`) and column paths (`messages.public`, `data->>blood`).
/// A type of its own over the ``Parser``'s cursor, as ``ConditionParser`` is: each function takes
/// the parser `inout`, so its tokens are never copied.
enum SelectListParser {
  /// A select list as the syntax tree holds it, its embeds' items in the same array.
  static func parse(_ parser: inout Parser, after: @autoclosure () -> String) throws(ParseFailure)
    -> SelectList
  {
    var builder = ASTBuilder()
    return try parse(&parser, after: after(), into: &builder)
  }

  /// A select list, made by `builder`.
  static func parse<Builder: SyntaxBuilder>(
    _ parser: inout Parser,
    after: @autoclosure () -> String, into builder: inout Builder
  ) throws(ParseFailure) -> Builder.Selection {
    var nodes = builder.selection()
    try parseSelectItems(&parser, after: after(), into: &nodes, &builder)
    return builder.finish(consume nodes)
  }

  /// One level's items, added to `nodes` (an embed's before its own items).
  private static func parseSelectItems<Builder: SyntaxBuilder>(
    _ parser: inout Parser,
    after: @autoclosure () -> String, into nodes: inout Builder.Items, _ builder: inout Builder
  ) throws(ParseFailure) {
    try parseSelectItem(&parser, after: after(), into: &nodes, &builder)
    while parser.eat(.comma) != nil {
      try parseSelectItem(&parser, after: "','", into: &nodes, &builder)
    }
  }

  /// Adds an item (an embed and its items) to `nodes`.
  private static func parseSelectItem<Builder: SyntaxBuilder>(
    _ parser: inout Parser,
    after: @autoclosure () -> String, into nodes: inout Builder.Items, _ builder: inout Builder
  ) throws(ParseFailure) {
    let start = parser.current.start
    if let star = parser.eat(.star) {
      return builder.add(.star(range: star.range), quotedOrAggregate: false, to: &nodes)
    }
    if parser.eat(.ellipsis) != nil {
      let relation = try parser.parseName(
        .relation(table: nil), what: "a relation to spread", after: "'...'")
      return try parseEmbed(
        &parser,
        alias: nil, relation: relation, spread: true, quoted: relation.quoted, start: start,
        into: &nodes, &builder)
    }
    var name = try parser.parseName(.column(table: nil), what: "a column", after: after())
    // Noted as each name is read (``SelectNode/quotedOrAggregate``): read from the names when
    // the item was added, the alias was copied to be looked into.
    var quotedOrAggregate = name.quoted
    var alias: Name?
    if parser.current.kind == .colon {
      parser.advance()
      alias = name
      name = try parser.parseName(
        .column(table: nil), what: "a column after the alias", after: "'\(name.text):'")
      quotedOrAggregate = quotedOrAggregate || name.quoted
    }
    // The tokens first: comparing every column's name with "count" was a call (the String
    // comparison's slow path) for each item.
    if parser.current.kind == .leftParen && parser.peek().kind == .rightParen && !name.quoted
      && name.text == "count"
    {
      // The bare `count()` aggregate, which may be cast: `total:count()::int`.
      parser.advance()
      parser.advance()
      let cast = try parseCast(&parser)
      let field = SelectField(
        alias: alias,
        column: ColumnPath(column: Name("", range: .point(name.range.start)), range: name.range),
        aggregate: name, cast: cast, range: SourceRange(start: start, end: parser.previousEnd))
      return builder.add(.field(field), quotedOrAggregate: true, to: &nodes)
    }
    if parser.at(.leftParen) || parser.at(.bang) {
      return try parseEmbed(
        &parser,
        alias: alias, relation: name, spread: false, quoted: quotedOrAggregate, start: start,
        into: &nodes, &builder)
    }
    // Built once from its parts: a field set a part at a time was copied at each step.
    let json = try parseJSONPath(&parser)
    var columnRange = SourceRange(start: name.range.start, end: parser.previousEnd)
    // `amount::int.sum()`: a cast before an aggregate casts the column it aggregates.
    var cast = try parseCast(&parser)
    var aggregate: Name?
    var inputCast: Name?
    if parser.current.kind == .dot && parser.peek().kind == .word
      && parser.peek(2).kind == .leftParen
    {
      parser.advance()
      let function = try parser.parseName(.type, what: "an aggregate", after: "'.'")
      aggregate = function
      quotedOrAggregate = true
      parser.advance()  // (
      guard parser.eat(.rightParen) != nil else {
        throw parser.expectedFailure("')'", after: "'\(function.text)('")
      }
      if cast == nil { columnRange.end = parser.previousEnd }
      inputCast = cast
      cast = try parseCast(&parser)
    }
    builder.add(
      .field(
        SelectField(
          alias: consume alias,
          column: ColumnPath(column: consume name, json: json, range: columnRange),
          aggregate: consume aggregate, inputCast: consume inputCast, cast: consume cast,
          range: SourceRange(start: start, end: parser.previousEnd))),
      quotedOrAggregate: quotedOrAggregate, to: &nodes)
  }

  /// `relation[!hint...](items)`, its items after it; the `(` is required, the items may be none.
  /// `quoted`: the alias or the relation was written in quotes.
  private static func parseEmbed<Builder: SyntaxBuilder>(
    _ parser: inout Parser,
    alias: Name?, relation: Name, spread: Bool, quoted: Bool, start: Int,
    into nodes: inout Builder.Items, _ builder: inout Builder
  ) throws(ParseFailure) {
    var hints: [Name] = []
    while parser.eat(.bang) != nil {
      parser.record(.keyword("inner"))
      parser.record(.keyword("left"))
      hints.append(try parser.parseName(.type, what: "a join type or foreign key", after: "'!'"))
    }
    guard let open = parser.eat(.leftParen) else {
      throw parser.expectedFailure("'(' and the embedded columns", after: "'\(relation.text)'")
    }
    try parser.enterNesting(open)
    defer { parser.leaveNesting() }
    parser.enterTable(relation.text)
    defer { parser.leaveTable() }
    // Handed to the list (the list's node is closed in place: the embed is not kept here).
    let node = builder.open(
      SelectEmbed(
        alias: alias, relation: relation, hints: hints, spread: spread,
        range: SourceRange(start: start, end: start)), quoted: quoted, in: &nodes)
    if parser.current.kind != .rightParen {
      try parseSelectItems(&parser, after: "'('", into: &nodes, &builder)
    }
    try parser.expectClose(.rightParen, opened: open)
    builder.close(at: node, end: parser.previousEnd, in: &nodes)
  }

  /// `::type`, if written.
  @inline(__always) static func parseCast(_ parser: inout Parser) throws(ParseFailure) -> Name? {
    // Most columns have no cast: one look at the token (unless completing here), inlined where
    // it is asked for, as `parseJSONPath`.
    if parser.position != parser.cursorToken && parser.current.kind != .doubleColon { return nil }
    return parser.eat(.doubleColon) == nil
      ? nil : try parser.parseName(.type, what: "a type", after: "'::'")
  }

  /// `->key` / `->>key` steps; keys are names, numbers (`0`, `-1`) or quoted strings; nil when
  /// none is written (no array made, none released).
  @inline(__always) static func parseJSONPath(_ parser: inout Parser) throws(ParseFailure)
    -> [JSONPathStep]?
  {
    // Most columns have no path: one look at the token (unless completing here), inlined where
    // it is asked for (a call to the whole function saved and restored its registers, about 30
    // instructions a column, to return nothing).
    if parser.position != parser.cursorToken && parser.current.kind != .arrow
      && parser.current.kind != .doubleArrow
    {
      return nil
    }
    let steps = try parseJSONSteps(&parser)
    return steps.isEmpty ? nil : steps
  }

  /// The steps of `parseJSONPath()`, from the current token on.
  private static func parseJSONSteps(_ parser: inout Parser) throws(ParseFailure) -> [JSONPathStep]
  {
    var steps: [JSONPathStep] = []
    while parser.at(.arrow) || parser.at(.doubleArrow) {
      let arrow = parser.advance()
      let asText = arrow.kind == .doubleArrow
      let token = parser.current
      switch token.kind {
      case .word, .number:
        parser.advance()
        steps.append(JSONPathStep(asText: asText, key: parser.text(token)))
      case .singleQuoted, .doubleQuoted:
        parser.advance()
        steps.append(
          JSONPathStep(asText: asText, key: try parser.decodeQuotedName(token), quoted: true))
      default:
        throw parser.expectedFailure("a JSON key or index", after: "'\(parser.text(arrow))'")
      }
    }
    return steps
  }

  /// `[embed.]*column[->path]`: in `where` and `order by`, a dotted name filters or orders an embed.
  static func parseColumnPath(_ parser: inout Parser, after: @autoclosure () -> String)
    throws(ParseFailure) -> ColumnPath
  {
    var column = try parser.parseName(.column(table: nil), what: "a column", after: after())
    // Most columns have no embed path: no array is made for them (nor released).
    var names: [Name]?
    while parser.current.kind == .dot && parser.peek().start == parser.current.end {
      parser.advance()
      let embed = column.text
      if names == nil { names = [] }
      names?.append(column)
      column = try parser.parseName(.column(table: embed), what: "a column", after: "'\(embed).'")
    }
    let json = try parseJSONPath(&parser)
    let start = names?.first?.range.start ?? column.range.start
    return ColumnPath(
      embedPath: names, column: column, json: json,
      range: SourceRange(start: start, end: parser.previousEnd))
  }
}
