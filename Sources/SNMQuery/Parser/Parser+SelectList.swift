/// Select lists (`select ...`, `returning ...`) and column paths (`messages.public`, `data->>blood`).
extension Parser {
  mutating func parseSelectList(after: @autoclosure () -> String) throws(ParseFailure)
    -> [SelectItem]
  {
    // The first item apart: `after:` is an autoclosure, and one that read `items` held the
    // array, so each append that grew it copied every item. Room for four made at once: a
    // list grown from one item was allocated again at the second and the third.
    var items: [SelectItem] = []
    items.reserveCapacity(4)
    items.append(try parseSelectItem(after: after()))
    while eat(.comma) != nil {
      items.append(try parseSelectItem(after: "','"))
    }
    return items
  }

  mutating func parseSelectItem(after: @autoclosure () -> String) throws(ParseFailure) -> SelectItem
  {
    let start = current.start
    if let star = eat(.star) { return .star(range: star.range) }
    if eat(.ellipsis) != nil {
      let relation = try parseName(
        .relation(table: tableContext.last), what: "a relation to spread", after: "'...'")
      return .embed(try parseEmbed(alias: nil, relation: relation, spread: true, start: start))
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
    if !name.quoted && name.text == "count" && current.kind == .leftParen
      && peek().kind == .rightParen
    {
      // The bare `count()` aggregate, which may be cast: `total:count()::int`.
      advance()
      advance()
      var field = SelectField(
        alias: alias,
        column: ColumnPath(column: Name("", range: .point(name.range.start)), range: name.range),
        aggregate: name, range: name.range)
      if eat(.doubleColon) != nil {
        field.cast = try parseName(.type, what: "a type", after: "'::'")
      }
      field.range = SourceRange(start: start, end: previousEnd)
      return .field(field)
    }
    if at(.leftParen) || at(.bang) {
      return .embed(try parseEmbed(alias: alias, relation: name, spread: false, start: start))
    }
    // Built once from its parts: a field set a part at a time was copied at each step.
    let json = try parseJSONPath()
    var columnRange = SourceRange(start: name.range.start, end: previousEnd)
    // `amount::int.sum()`: a cast before an aggregate casts the column it aggregates.
    var cast: Name?
    if eat(.doubleColon) != nil {
      cast = try parseName(.type, what: "a type", after: "'::'")
    }
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
      cast = nil
      if eat(.doubleColon) != nil {
        cast = try parseName(.type, what: "a type", after: "'::'")
      }
    }
    return .field(
      SelectField(
        alias: alias, column: ColumnPath(column: name, json: json, range: columnRange),
        aggregate: aggregate, inputCast: inputCast, cast: cast,
        range: SourceRange(start: start, end: previousEnd)))
  }

  /// `relation[!hint...](items)`; the `(` is required, the items may be empty (`count()`).
  mutating func parseEmbed(alias: Name?, relation: Name, spread: Bool, start: Int)
    throws(ParseFailure)
    -> SelectEmbed
  {
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
    tableContext.append(relation.text)
    defer { tableContext.removeLast() }
    var items: [SelectItem] = []
    if current.kind != .rightParen {
      items = try parseSelectList(after: "'('")
    }
    try expectClose(.rightParen, opened: open)
    return SelectEmbed(
      alias: alias, relation: relation, hints: hints, items: items, spread: spread,
      range: SourceRange(start: start, end: previousEnd))
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
  mutating func parseJSONPath() throws(ParseFailure) -> [JSONPathStep] {
    // Most columns have no path: one look at the token (unless completing here).
    if position != cursorToken && current.kind != .arrow && current.kind != .doubleArrow {
      return []
    }
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
