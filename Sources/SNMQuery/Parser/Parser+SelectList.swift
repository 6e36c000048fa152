/// Select lists (`select ...`, `returning ...`) and column paths (`messages.public`, `data->>blood`).
extension Parser {
  mutating func parseSelectList(after: @autoclosure () -> String) throws(ParseFailure)
    -> [SelectItem]
  {
    var items: [SelectItem] = []
    repeat {
      items.append(try parseSelectItem(after: items.isEmpty ? after() : "','"))
    } while eat(.comma) != nil
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
    var field = SelectField(
      alias: alias, column: ColumnPath(column: name, range: name.range), range: name.range)
    field.column.json = try parseJSONPath()
    field.column.range = SourceRange(start: name.range.start, end: previousEnd)
    // `amount::int.sum()`: a cast before an aggregate casts the column it aggregates.
    var cast: Name?
    if eat(.doubleColon) != nil {
      cast = try parseName(.type, what: "a type", after: "'::'")
    }
    if current.kind == .dot && peek().kind == .word && peek(2).kind == .leftParen {
      advance()
      field.aggregate = try parseName(.type, what: "an aggregate", after: "'.'")
      advance()  // (
      guard eat(.rightParen) != nil else {
        throw expectedFailure("')'", after: "'\(field.aggregate?.text ?? "")('")
      }
      if cast == nil { field.column.range.end = previousEnd }
      field.inputCast = cast
      cast = nil
      if eat(.doubleColon) != nil {
        cast = try parseName(.type, what: "a type", after: "'::'")
      }
    }
    field.cast = cast
    field.range = SourceRange(start: start, end: previousEnd)
    return .field(field)
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
    var path = ColumnPath(embedPath: names, column: column, range: column.range)
    path.json = try parseJSONPath()
    path.range = SourceRange(
      start: names.first?.range.start ?? column.range.start, end: previousEnd)
    return path
  }
}
