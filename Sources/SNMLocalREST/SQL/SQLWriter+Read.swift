import SNMGateway

/// SQL for a `ReadPlan`: one SELECT per level, embeds as LATERAL subqueries whose rows become
/// JSON in Postgres (`row_to_json` for to-one, `json_agg` for to-many), as PostgREST builds them
/// (QueryBuilder.hs `readPlanToQuery`, `readPlanToCountQuery`).
extension SQLWriter {
  /// The parent an embedded level is joined to.
  struct JoinContext {
    var relationship: Relationship
    var parentReference: String
    /// The alias for a many-to-many junction table.
    var junctionAlias: String
    /// The parent's whole row (`"t_1"`, or the table's bare name at the root), for a computed
    /// relationship's function.
    var parentRow: String
  }

  /// `SELECT <columns, embeds> FROM <source> <laterals> WHERE <join, conditions> ORDER BY ...
  /// LIMIT ... OFFSET ...`.
  ///
  /// `orderColumns` are extra `expression AS alias` items for a to-many spread's order, which
  /// its `json_aggs` apply instead of an ORDER BY here. `groupedAbove` is set for a to-one
  /// spread whose columns a grouping level above groups by: its embeds are then jsonb too.
  mutating func select(
    _ plan: ReadPlan, cache: SchemaCache, join: JoinContext? = nil,
    orderColumns: [(term: OrderTerm, alias: String)] = [], groupedAbove: Bool = false
  ) throws(RESTError) {
    append("SELECT ")
    // With an aggregate (its own, or one taken from a to-one spread), the level is grouped by
    // every other item it selects, a spread's columns one by one (PostgREST's `groupF`), named
    // by position so JSON paths bound as parameters need not repeat; embeds are then jsonb,
    // which has equality. A column formatted by its domain's cast is grouped by the column
    // itself (json has no equality), as PostgREST's `pgFmtGroup`.
    let grouped = plan.isGrouped
    let jsonb = grouped || groupedAbove ? "::jsonb" : ""
    var groupTerms: [String] = []
    var items = 0
    func next(_ writer: inout SQLWriter, grouping: Bool, column: String? = nil) {
      if items > 0 { writer.append(", ") }
      items += 1
      if grouped && grouping { groupTerms.append(column ?? String(items)) }
    }
    for field in plan.fields {
      if grouped, field.isStar, field.aggregate == nil, let table = plan.table {
        for column in table.columns {
          let expression = plan.reference + "." + SQLText.identifier(column.name)
          guard let formatter = column.representation?.toJSON else {
            next(&self, grouping: true)
            append(expression)
            continue
          }
          next(&self, grouping: true, column: expression)
          append(formatter.sql + "(" + expression + ") AS ")
          identifier(column.name)
        }
        continue
      }
      var column: String? = nil
      if grouped, field.aggregate == nil, Self.formatter(field.field, table: plan.table) != nil {
        column = plan.reference + "." + SQLText.identifier(field.field.name)
      }
      next(&self, grouping: field.aggregate == nil, column: column)
      try selectField(field, plan: plan, cache: cache)
    }
    for (term, alias) in orderColumns {
      if items > 0 { append(", ") }
      try orderExpression(term, plan: plan)
      append(" AS ")
      identifier(alias)
      items += 1
    }
    for embed in plan.embeds where !embed.plan.isEmpty {
      let lateral = SQLText.identifier(embed.lateralAlias)
      if embed.isSpread && (embed.isToManySpread || grouped) {
        for name in embed.plan.spreadNames {
          let column = lateral + "." + SQLText.identifier(name)
          if let aggregate = embed.spreadAggregates[name] {
            next(&self, grouping: false)
            try aggregateCall(
              aggregate.function, resultCast: aggregate.cast, name: name, cache: cache
            ) { (writer: inout SQLWriter) throws(RESTError) in writer.append(column) }
          } else {
            next(&self, grouping: true)
            append(column)
          }
        }
      } else if embed.isSpread {
        next(&self, grouping: false)
        append(lateral + ".*")
      } else if embed.relationship.isToOne {
        next(&self, grouping: true)
        append("row_to_json(\(lateral).*)\(jsonb) AS ")
        identifier(embed.key)
      } else {
        next(&self, grouping: true)
        append("COALESCE(\(lateral).\(lateral), '[]')\(jsonb) AS ")
        identifier(embed.key)
      }
    }
    append(" ")
    from(plan, join: join)
    for embed in plan.embeds {
      try lateralJoin(embed, parent: plan, cache: cache, groupedAbove: !jsonb.isEmpty)
    }
    try whereClause(plan, join: join, countMode: false)
    if !groupTerms.isEmpty {
      append(" GROUP BY " + groupTerms.joined(separator: ", "))
    }
    try orderClause(plan)
    rangeClause(plan.range)
  }

  /// ` LIMIT n OFFSET m` of a range (either part only when it has it).
  mutating func rangeClause(_ range: QueryParameters.Range?) {
    guard let range else { return }
    if let limit = range.limit {
      append(" LIMIT ")
      integer(limit)
    }
    if range.offset > 0 {
      append(" OFFSET ")
      integer(range.offset)
    }
  }

  /// `SELECT 1 FROM <source> WHERE <join, conditions, EXISTS for inner embeds>`: the rows a count
  /// covers, without embeds' JSON.
  mutating func countSource(
    _ plan: ReadPlan, cache: SchemaCache, join: JoinContext? = nil
  ) throws(RESTError) {
    append("SELECT 1 ")
    from(plan, join: join)
    try whereClause(plan, join: join, countMode: true)
  }

  mutating func from(_ plan: ReadPlan, join: JoinContext?) {
    append("FROM ")
    if let join, case .computed(let function, _) = join.relationship.cardinality {
      // `function(parent row)`: the parent's row cast to the function's argument type, which a
      // write's or rpc's source rows need (QueryBuilder.hs `fromF`).
      append(function.sql + "(" + join.parentRow + "::" + join.relationship.table.sql + ")")
    } else {
      switch plan.source {
      case .relation(let name): append(name.sql)
      case .named(let name): identifier(name)
      }
    }
    if let alias = plan.alias {
      append(" AS ")
      identifier(alias)
    }
    if let join, case .manyToMany(let junction) = join.relationship.cardinality {
      append(", " + junction.table.sql + " AS ")
      identifier(join.junctionAlias)
    }
  }

  /// A selected item, a column formatted by its domain's `domain AS json` cast (PostgREST's
  /// `withOutputFormat`).
  private mutating func selectField(
    _ field: SelectField, plan: ReadPlan, cache: SchemaCache
  ) throws(RESTError) {
    if let aggregate = field.aggregate {
      try aggregateField(field, aggregate: aggregate, plan: plan, cache: cache)
      return
    }
    if field.isStar {
      // `*` over a table with represented columns lists them, each formatted (PostgREST's
      // `expandStarsForTable`).
      guard let table = plan.table, table.hasOutputRepresentations else {
        append(plan.reference + ".*")
        return
      }
      for (index, column) in table.columns.enumerated() {
        if index > 0 { append(", ") }
        let expression = plan.reference + "." + SQLText.identifier(column.name)
        guard let formatter = column.representation?.toJSON else {
          append(expression)
          continue
        }
        append(formatter.sql + "(" + expression + ") AS ")
        identifier(column.name)
      }
      return
    }
    if field.isRow {
      append(plan.rowReference + " AS ")
      identifier(field.alias ?? "count")
      return
    }
    let formatter = Self.formatter(field.field, table: plan.table)
    try castField(field, plan: plan, cache: cache, formatter: formatter)
    if let alias = field.alias {
      append(" AS ")
      identifier(alias)
    } else if !field.field.path.isEmpty || field.cast != nil || formatter != nil {
      append(" AS ")
      identifier(field.field.outputName)
    }
  }

  /// The `domain AS json` function of the whole column `field` names, if it has one. A JSON path
  /// reads into the base type's JSON instead.
  static func formatter(_ field: FieldPath, table: TableInfo?) -> QualifiedName? {
    guard let table, table.hasOutputRepresentations, field.path.isEmpty else { return nil }
    return table.column(field.name)?.representation?.toJSON
  }

  /// The field's expression, formatted by `formatter` (`fn(col)`), in `CAST(... AS type)` when it
  /// has a `::cast` (the cast applies to the formatted value, as in PostgREST).
  private mutating func castField(
    _ field: SelectField, plan: ReadPlan, cache: SchemaCache, formatter: QualifiedName? = nil
  ) throws(RESTError) {
    var type: String? = nil
    if let cast = field.cast { type = try cache.castType(cast) }
    if type != nil { append("CAST(") }
    if let formatter { append(formatter.sql + "(") }
    fieldExpression(field.field, reference: plan.reference, table: plan.table)
    if formatter != nil { append(")") }
    if let type { append(" AS \(type))") }
  }

  /// `[CAST(]SUM([CAST(]expr[ AS type)])[ AS type)] AS "sum"`; `count()` is `COUNT(*)`. The
  /// output name is the alias, else the function's name, as Postgres labels it.
  private mutating func aggregateField(
    _ field: SelectField, aggregate: String, plan: ReadPlan, cache: SchemaCache
  ) throws(RESTError) {
    try aggregateCall(
      aggregate, resultCast: field.aggregateCast, name: field.alias ?? aggregate, cache: cache
    ) { (writer: inout SQLWriter) throws(RESTError) in
      if field.isStar {
        writer.append("*")
      } else {
        try writer.castField(
          field, plan: plan, cache: cache,
          formatter: Self.formatter(field.field, table: plan.table))
      }
    }
  }

  /// `[CAST(]FUNCTION(argument)[ AS type)] AS "name"`.
  private mutating func aggregateCall(
    _ function: String, resultCast: String?, name: String, cache: SchemaCache,
    argument: (inout SQLWriter) throws(RESTError) -> Void
  ) throws(RESTError) {
    var resultType: String? = nil
    if let resultCast { resultType = try cache.castType(resultCast) }
    if resultType != nil { append("CAST(") }
    append(function.uppercased() + "(")
    try argument(&self)
    append(")")
    if let resultType { append(" AS \(resultType))") }
    append(" AS ")
    identifier(name)
  }

  /// `reference."column"` followed by its JSON path, keys and indexes bound as parameters.
  ///
  /// A path on a column that is not json/jsonb (an array, a composite, a column `table` does not
  /// know) goes through `to_jsonb(...)` first, as PostgREST's `cfToJson`: `numbers->0`,
  /// `num->>i`.
  mutating func fieldExpression(_ field: FieldPath, reference: String, table: TableInfo?) {
    let column = reference + "." + SQLText.identifier(field.name)
    if field.path.isEmpty || table?.column(field.name)?.isJSON == true {
      append(column)
    } else {
      append("to_jsonb(" + column + ")")
    }
    for step in field.path {
      append(step.asText ? "->>" : "->")
      switch step.operand {
      case .key(let key): bind(key)
      case .index(let index): bind(String(index), as: "integer")
      }
    }
  }

  /// `groupedAbove`: the parent groups by this embed's values (they must be jsonb then).
  private mutating func lateralJoin(
    _ embed: EmbedPlan, parent: ReadPlan, cache: SchemaCache, groupedAbove: Bool
  ) throws(RESTError) {
    let lateral = SQLText.identifier(embed.lateralAlias)
    let context = JoinContext(
      relationship: embed.relationship, parentReference: parent.reference,
      junctionAlias: embed.lateralAlias + "_j", parentRow: parent.rowReference)
    append(embed.isInner ? " INNER JOIN LATERAL (" : " LEFT JOIN LATERAL (")
    if embed.isToManySpread {
      // Each spread column an array of the rows' values, in the embed's order (QueryBuilder.hs
      // `pgFmtSpreadJoinSelectItem`); the rows' own order moves into the json_aggs.
      let orderColumns = embed.plan.order.enumerated().map { index, term in
        (term: term, alias: "\(embed.lateralAlias)_\(term.field.name)_\(index + 1)")
      }
      append("SELECT json_agg(\(lateral)) AS \(lateral)")
      for name in embed.plan.spreadNames {
        append(", COALESCE(json_agg(\(lateral).")
        identifier(name)
        if !orderColumns.isEmpty {
          append(" ORDER BY ")
          for (index, column) in orderColumns.enumerated() {
            if index > 0 { append(", ") }
            append(lateral + ".")
            identifier(column.alias)
            orderDirection(column.term)
          }
        }
        append(groupedAbove ? "), '[]')::jsonb AS " : "), '[]') AS ")
        identifier(name)
      }
      append(" FROM (")
      var inner = embed.plan
      inner.order = []
      try select(inner, cache: cache, join: context, orderColumns: orderColumns)
      append(") AS \(lateral)) AS \(lateral) ON ")
      append(embed.isInner ? "\(lateral) IS NOT NULL" : "TRUE")
    } else if embed.relationship.isToOne {
      try select(
        embed.plan, cache: cache, join: context, groupedAbove: groupedAbove && embed.isSpread)
      append(") AS \(lateral) ON TRUE")
    } else {
      append("SELECT json_agg(\(lateral)) AS \(lateral) FROM (")
      try select(embed.plan, cache: cache, join: context)
      append(") AS \(lateral)) AS \(lateral) ON ")
      append(embed.isInner ? "\(lateral) IS NOT NULL" : "TRUE")
    }
  }

  /// The WHERE: join conditions to the parent, then the level's conditions; in count mode inner
  /// embeds become EXISTS subqueries.
  mutating func whereClause(
    _ plan: ReadPlan, join: JoinContext?, countMode: Bool
  ) throws(RESTError) {
    var parts = 0
    func next(_ writer: inout SQLWriter) {
      writer.append(parts == 0 ? " WHERE " : " AND ")
      parts += 1
    }
    if join == nil, let guardCondition {
      next(&self)
      append(guardCondition)
    }
    if let join {
      for (childColumn, parentColumn) in joinColumns(join, childReference: plan.reference) {
        next(&self)
        append("\(childColumn) = \(parentColumn)")
      }
    }
    for condition in plan.conditions {
      next(&self)
      try self.condition(condition, plan: plan, countMode: countMode)
    }
    if countMode {
      for embed in plan.embeds where embed.isInner {
        next(&self)
        try existsEmbed(embed, parent: plan)
      }
    }
  }

  /// `EXISTS (SELECT 1 FROM child WHERE join AND conditions)`.
  private mutating func existsEmbed(_ embed: EmbedPlan, parent: ReadPlan) throws(RESTError) {
    append("EXISTS (")
    let context = JoinContext(
      relationship: embed.relationship, parentReference: parent.reference,
      junctionAlias: embed.lateralAlias + "_j", parentRow: parent.rowReference)
    append("SELECT 1 ")
    from(embed.plan, join: context)
    try whereClause(embed.plan, join: context, countMode: true)
    append(")")
  }

  /// (child expression, parent expression) pairs that join a level to its parent.
  private func joinColumns(
    _ join: JoinContext, childReference: String
  ) -> [(String, String)] {
    let parent = join.parentReference
    switch join.relationship.cardinality {
    case .computed:
      return []
    case .manyToOne(_, let pairs), .oneToMany(_, let pairs), .oneToOne(_, let pairs):
      return pairs.map { pair in
        (
          childReference + "." + SQLText.identifier(pair.1),
          parent + "." + SQLText.identifier(pair.0)
        )
      }
    case .manyToMany(let junction):
      let junctionReference = SQLText.identifier(join.junctionAlias)
      let source = junction.sourceColumns.map { pair in
        (
          junctionReference + "." + SQLText.identifier(pair.1),
          parent + "." + SQLText.identifier(pair.0)
        )
      }
      let target = junction.targetColumns.map { pair in
        (
          childReference + "." + SQLText.identifier(pair.0),
          junctionReference + "." + SQLText.identifier(pair.1)
        )
      }
      return source + target
    }
  }

  mutating func condition(
    _ condition: Condition, plan: ReadPlan, countMode: Bool
  ) throws(RESTError) {
    switch condition {
    case .filter(let filter):
      self.filter(filter, reference: plan.reference, table: plan.table)
    case .embedPresence(let key, let present):
      guard let embed = plan.embed(key) else { throw RESTError.notEmbedded(key) }
      if countMode {
        append(present ? "" : "NOT ")
        try existsEmbed(embed, parent: plan)
      } else {
        append(SQLText.identifier(embed.lateralAlias))
        append(present ? " IS DISTINCT FROM NULL" : " IS NOT DISTINCT FROM NULL")
      }
    case .group(let negated, let conjunction, let children):
      append(negated ? "NOT (" : "(")
      try join(children, separator: conjunction == .and ? " AND " : " OR ") {
        (writer: inout SQLWriter, child: Condition) throws(RESTError) in
        try writer.condition(child, plan: plan, countMode: countMode)
      }
      append(")")
    }
  }

  mutating func orderClause(_ plan: ReadPlan) throws(RESTError) {
    guard !plan.order.isEmpty else { return }
    append(" ORDER BY ")
    try join(plan.order, separator: ", ") {
      (writer: inout SQLWriter, term: OrderTerm) throws(RESTError) in
      try writer.orderExpression(term, plan: plan)
      writer.orderDirection(term)
    }
  }

  /// The column (or a to-one embed's column) an order term sorts by.
  private mutating func orderExpression(_ term: OrderTerm, plan: ReadPlan) throws(RESTError) {
    if let relation = term.relation {
      guard let embed = plan.embed(relation) else { throw RESTError.notEmbedded(relation) }
      fieldExpression(
        term.field, reference: SQLText.identifier(embed.lateralAlias), table: embed.plan.table)
    } else {
      fieldExpression(term.field, reference: plan.reference, table: plan.table)
    }
  }

  /// ` DESC` / ` ASC` and ` NULLS FIRST` / ` NULLS LAST`, as written.
  private mutating func orderDirection(_ term: OrderTerm) {
    if let descending = term.descending { append(descending ? " DESC" : " ASC") }
    if let nullsFirst = term.nullsFirst {
      append(nullsFirst ? " NULLS FIRST" : " NULLS LAST")
    }
  }
}
