/// Checks of queries and rpc calls: bodies, filters, clauses.
extension Checker {
  mutating func check(_ query: QueryStatement) {
    checkNames(in: query.table)
    let verb = query.action.verb
    switch query.action {
    case .select(let items, _):
      checkSelect(items)
      if case .all(let range) = query.filter {
        report(
          .whereAllNotAllowed, at: range,
          help:
            "drop 'where all': without 'where' a select reads every row up to the server's row "
            + "cap; 'all' at its end reads past the cap")
      }
      if let range = query.modifiers.rare?.returningRange {
        report(
          .clauseNotAllowed("returning", verb), at: range,
          help: "name the columns after 'select' instead")
      }
    case .insert(let body, _):
      checkBody(body, verb: verb, allowArray: true)
      checkInsertClauses(query, verb: verb)
    case .upsert(let upsert):
      checkBody(upsert.body, verb: verb, allowArray: true)
      for name in upsert.onConflict { checkName(name) }
      checkInsertClauses(query, verb: verb)
    case .update(let body, let range):
      checkBody(body, verb: verb, allowArray: false)
      requireWhere(query, verb: verb, at: range)
    case .delete(let range):
      requireWhere(query, verb: verb, at: range)
    case .put(let body, let range):
      checkBody(body, verb: verb, allowArray: false)
      requireWhere(query, verb: verb, at: range)
    }
    if case .condition(let condition) = query.filter {
      check(condition)
      checkGroups(condition, topLevel: true)
    }
    check(query.modifiers)
    checkGuards(query.modifiers, verb: verb)
    if let file = query.bodyFile {
      checkVariables(in: ValueNode(.string(file.literal), range: file.range))
    }
  }

  /// What an insert or upsert may not have: a filter, an order, a limit or an offset.
  mutating func checkInsertClauses(_ query: QueryStatement, verb: String) {
    if let filter = query.filter {
      report(
        .whereNotAllowed(verb), at: filter.range,
        help: "to change existing rows, use 'update ... where ...'")
    }
    if let range = query.modifiers.orderRange {
      report(.clauseNotAllowed("order by", verb), at: range)
    }
    if let limit = query.modifiers.limit {
      report(.clauseNotAllowed("limit", verb), at: limit.range)
    }
    if let offset = query.modifiers.offset {
      report(.clauseNotAllowed("offset", verb), at: offset.range)
    }
  }

  mutating func requireWhere(_ query: QueryStatement, verb: String, at range: SourceRange) {
    guard query.filter == nil else { return }
    let keyword = SourceRange(start: range.start, end: range.start + verb.utf8.count)
    report(
      .unfilteredWrite(verb), at: keyword,
      help: "add 'where <condition>' to pick rows, or 'where all' to \(verb) every row on purpose")
  }

  mutating func check(_ rpc: RPCStatement) {
    checkNames(in: rpc.function)
    if let arguments = rpc.arguments {
      switch arguments.value {
      case .object, .variable: checkVariables(in: arguments)
      default:
        report(
          .bodyKind(
            rpc.get ? "rpc get" : "rpc", expected: "an object of named arguments",
            found: arguments.value.kindDescription), at: arguments.range,
          help: "write the arguments as {\"name\": value}")
      }
    }
    if let filter = rpc.filter {
      check(filter)
      checkGroups(filter, topLevel: true)
    }
    check(rpc.modifiers)
    checkGuards(rpc.modifiers, verb: rpc.get ? "rpc get" : "rpc")
  }

  /// An object (or, for insert and upsert, an array of objects) or a variable.
  mutating func checkBody(_ body: ValueNode, verb: String, allowArray: Bool) {
    let expected = allowArray ? "an object or an array of objects" : "an object"
    switch body.value {
    case .object, .variable:
      break
    case .array(let elements) where allowArray:
      for element in elements {
        switch element.value {
        case .object, .variable: break
        default:
          report(
            .bodyKind(verb, expected: "objects in the array", found: element.value.kindDescription),
            at: element.range, help: "each row is written as {\"column\": value}")
        }
      }
    default:
      report(
        .bodyKind(verb, expected: expected, found: body.value.kindDescription), at: body.range,
        help: "write the row as {\"column\": value}")
    }
    checkVariables(in: body)
  }

  // Inlined, as checkGuards: a call took a copy of the statement's modifiers (a memcpy of the
  // struct and a retain of each field), where inlined each field is read in place.
  @inline(__always) mutating func check(_ modifiers: Modifiers) {
    // Each item lent in place (a `for` copied each out, its names retained and released).
    for index in modifiers.order.indices {
      modifiers.order.withBorrowedElement(at: index) { checkNames(in: $0.column) }
    }
    if let limit = modifiers.limit { checkCount(limit, clause: "limit") }
    if let offset = modifiers.offset { checkCount(offset, clause: "offset") }
    if let returning = modifiers.rare?.returning { checkSelect(returning) }
  }

  mutating func checkSelect(_ list: SelectList) {
    // Every node of the list, its embeds' items included, in array order, each lent in place
    // (the subscript, and a buffer pointer's, copied each item out first). Only those with a
    // name in quotes or an aggregate (``SelectNode/quotedOrAggregate``): `checkSelectItem`
    // refuses nothing else (a word is never empty), and looking into an item copied it out
    // of its node (its names retained and released), at every item.
    for node in list.startIndex..<list.endIndex {
      list.nodes.withBorrowedElement(at: node) {
        if $0.quotedOrAggregate { checkSelectItem(&$0.item) }
      }
    }
  }

  /// An item's own names (an embed's items are checked as the nodes after it).
  mutating func checkSelectItem(_ item: inout SelectItem) {
    switch item {
    case .star: break
    case .field(let field):
      if let alias = field.alias { checkName(alias) }
      if let aggregate = field.aggregate, field.column.column.text.isEmpty {
        // The bare `count()` is the one field with an empty column not in quotes (the parser
        // makes it so); a column written `""` is refused beside any aggregate (`"".sum()` was
        // sent as `count()`).
        if field.column.column.quoted {
          report(
            .emptyName, at: field.column.column.range,
            help: "to count the rows, write 'count()'; to \(aggregate.text) a column, name it")
        }
      } else {
        checkNames(in: field.column)
      }
      if let aggregate = field.aggregate, !Self.aggregates.contains(aggregate.text) {
        report(
          .unknownAggregate(aggregate.text), at: aggregate.range,
          help: "PostgREST's aggregates are "
            + Self.aggregates.map { "\($0)()" }.joined(separator: ", ")
            + (DidYouMean.suggest(aggregate.text, among: Self.aggregates).map {
              " (did you mean '\($0)'?)"
            } ?? ""))
      }
    case .embed(let embed):
      checkName(embed.relation)
    }
  }

  mutating func checkNames(in table: TableName) {
    if let schema = table.schema { checkName(schema) }
    checkName(table.name)
  }

  mutating func checkNames(in column: ColumnPath) {
    // Most columns have no embed path: no loop over it is set up for them (an iterator retained
    // and released the empty array).
    if !column.embedPath.isEmpty {
      for name in column.embedPath { checkName(name) }
    }
    checkName(column.column)
  }

  /// The aggregate functions of PostgREST's select grammar (`pAggregation`).
  static let aggregates = ["sum", "avg", "min", "max", "count"]

  mutating func checkName(_ name: Name) {
    if name.text.isEmpty { report(.emptyName, at: name.range) }
  }
}
