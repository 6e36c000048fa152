import SNMWire

/// POST (insert, upsert), PATCH (update) and DELETE on a table or view.
extension RESTGateway {
  func insert(_ table: TableInfo, _ context: Context) throws -> HTTPResponse {
    let body = try RequestBody.parse(
      context.request.body, contentType: context.request.headers["Content-Type"])
    guard body.isObject || body.value.arrayValue != nil else {
      throw RESTError.invalidBody("Empty or invalid json")
    }
    let names: [String]
    if let listed = context.query.columns {
      names = listed
    } else {
      names = try body.uniformKeys() ?? []
    }
    var columns: [ColumnInfo] = []
    var seen: Set<String> = []
    for name in names where seen.insert(name).inserted {
      columns.append(try context.cache.column(name, of: table))
    }
    let prefs = context.preferences
    let defaults =
      prefs.missingDefault == true ? columns.filter { $0.defaultExpression != nil } : []
    var conflict: SQLWriter.Conflict? = nil
    if let resolution = prefs.resolution {
      conflict = SQLWriter.Conflict(
        columns: context.query.onConflict ?? table.primaryKey,
        merge: resolution == .mergeDuplicates)
    }
    let tracksInserted =
      conflict?.merge == true && table.kind == .table && prefs.returnRepresentation
    let returning: SQLWriter.Returning =
      tracksInserted ? .rowsAndInserted : (returnsRows(prefs) ? .rows : .count)
    let plan = try returnedRows(table, context, expandStar: tracksInserted)
    var sql = SQLWriter()
    try sql.writeStatement(
      cache: context.cache, plan: plan, shape: plan == nil ? .none : context.shape,
      tracksInserted: tracksInserted
    ) { (writer: inout SQLWriter) throws(RESTError) in
      writer.insert(
        into: table, columns: columns, body: body.text, isObject: body.isObject,
        defaults: defaults, conflict: conflict, returning: returning)
    }
    if let answer = try planResponse(sql.statement, context) { return answer }
    let row = try runWrite(sql.statement, context)
    var headers = context.baseHeaders(contentType: plan != nil)
    headers.append(
      name: "Content-Range", value: "*/" + (prefs.count != nil ? String(row.pageTotal) : "*"))
    if prefs.returning == .headersOnly, let location = location(table, body: body, row: row) {
      headers.append(name: "Location", value: location)
    }
    let status = (conflict?.merge == true && row.inserted == 0) ? 200 : 201
    return try Self.applyingResponseSettings(
      HTTPResponse(status: status, headers: headers, body: plan == nil ? [] : context.body(row)),
      row: row)
  }

  func update(_ table: TableInfo, _ context: Context) throws -> HTTPResponse {
    let body = try RequestBody.parse(
      context.request.body, contentType: context.request.headers["Content-Type"])
    guard let members = body.value.objectValue else {
      throw RESTError.invalidBody("Empty or invalid json")
    }
    let keys = Set(members.map(\.key))
    var columns: [ColumnInfo] = []
    var defaulted: [ColumnInfo] = []
    var seen: Set<String> = []
    for name in context.query.columns ?? members.map(\.key) where seen.insert(name).inserted {
      let column = try context.cache.column(name, of: table)
      if !keys.contains(name) && context.preferences.missingDefault == true {
        defaulted.append(column)
      } else {
        columns.append(column)
      }
    }
    return try modify(table, context) { writer, root, returning throws(RESTError) in
      try writer.update(
        table, columns: columns, defaulted: defaulted, body: body.text, root: root,
        range: context.query.ranges[[]], returning: returning)
    }
  }

  func delete(_ table: TableInfo, _ context: Context) throws -> HTTPResponse {
    try modify(table, context, isDelete: true) { writer, root, returning throws(RESTError) in
      try writer.delete(
        from: table, root: root, range: context.query.ranges[[]], returning: returning)
    }
  }

  /// An UPDATE or DELETE: `write` adds the statement, given the root level's conditions and what
  /// it returns (the rows when the client asked for them, else a count).
  private func modify(
    _ table: TableInfo, _ context: Context, isDelete: Bool = false,
    _ write: (inout SQLWriter, ReadPlan, SQLWriter.Returning) throws(RESTError) -> Void
  ) throws -> HTTPResponse {
    let root = try rootConditions(table, context)
    let plan = try returnedRows(table, context, expandStar: false)
    var sql = SQLWriter()
    try sql.writeStatement(
      cache: context.cache, plan: plan, shape: plan == nil ? .none : context.shape,
      tracksInserted: false
    ) { (writer: inout SQLWriter) throws(RESTError) in
      try write(&writer, root, plan == nil ? .count : .rows)
    }
    if let answer = try planResponse(sql.statement, context) { return answer }
    let row = try runWrite(sql.statement, context)
    return try Self.applyingResponseSettings(
      modifiedResponse(row, plan: plan, isDelete: isDelete, context), row: row)
  }

  /// PUT: one row, inserted or replaced, named by its whole primary key (`?id=eq.1`), as
  /// PostgREST's single upsert (Plan.hs `MutationSingleUpsert`): an INSERT ... ON CONFLICT (pk)
  /// DO UPDATE of the body rows matching the filters, which must then be exactly one.
  ///
  /// Throws 400 PGRST114 for `limit`/`offset`, 405 PGRST105 unless the filters are exactly the
  /// primary key columns with `eq` (no `or`/`and`), 400 PGRST115 when the body's key differs
  /// from the URL's (nothing is written).
  func put(_ table: TableInfo, _ context: Context) throws -> HTTPResponse {
    let query = context.query
    if query.ranges[[]] != nil { throw RESTError.putLimitNotAllowed }
    let root = query.filters.filter { $0.path.isEmpty }.map(\.filter)
    let named = root.map(\.field.name)
    let onlyEquals = root.allSatisfy { filter in
      guard !filter.expression.negated, filter.field.path.isEmpty,
        case .compare(.eq, nil, _) = filter.expression.operation
      else { return false }
      return true
    }
    guard !table.primaryKey.isEmpty, query.logic.allSatisfy({ !$0.path.isEmpty }), onlyEquals,
      Set(named) == Set(table.primaryKey), named.count == table.primaryKey.count
    else { throw RESTError.invalidPutFilters }
    let body = try RequestBody.parse(
      context.request.body, contentType: context.request.headers["Content-Type"])
    guard body.isObject || body.value.arrayValue != nil else {
      throw RESTError.invalidBody("Empty or invalid json")
    }
    var columns: [ColumnInfo] = []
    var seen: Set<String> = []
    for name in try body.uniformKeys() ?? [] where seen.insert(name).inserted {
      columns.append(try context.cache.column(name, of: table))
    }
    let representation = context.preferences.returnRepresentation
    let plan = try returnedRows(table, context, expandStar: true)
    var sql = SQLWriter()
    try sql.writeStatement(
      cache: context.cache, plan: plan, shape: plan == nil ? .none : context.shape,
      tracksInserted: true
    ) { (writer: inout SQLWriter) throws(RESTError) in
      writer.insert(
        into: table, columns: columns, body: body.text, isObject: body.isObject, defaults: [],
        conflict: SQLWriter.Conflict(columns: table.primaryKey, merge: true),
        returning: .rowsAndInserted, bodyFilters: root)
    }
    if let answer = try planResponse(sql.statement, context) { return answer }
    let singular = context.media.isSingular
    let results = try run([sql.statement], context, readOnly: false) { row in
      if row.pageTotal != 1 { throw RESTError.putMatchingPrimaryKey }
      if singular && row.pageTotal != 1 { throw RESTError.singularity(rows: row.pageTotal) }
    }
    let row = ResultRow(results[0])
    guard representation, plan != nil else {
      return try Self.applyingResponseSettings(
        HTTPResponse(status: 204, headers: context.baseHeaders(contentType: false)), row: row)
    }
    return try Self.applyingResponseSettings(
      HTTPResponse(
        status: (row.inserted ?? 0) > 0 ? 201 : 200, headers: context.baseHeaders(),
        body: context.body(row)),
      row: row)
  }

  private func returnsRows(_ prefs: Preferences) -> Bool {
    prefs.returning == .representation
  }

  /// The plan of the rows a write returns (over `pgrst_source`), or nil for `return=minimal`.
  private func returnedRows(
    _ table: TableInfo, _ context: Context, expandStar: Bool
  ) throws -> ReadPlan? {
    guard returnsRows(context.preferences) else { return nil }
    var select = context.query.select
    if expandStar {
      select = select.flatMap { item -> [SelectItem] in
        if case .field(let field) = item, field.isStar {
          return table.columns.map { .field(SelectField(field: FieldPath(name: $0.name))) }
        }
        return [item]
      }
    }
    var planner = ReadPlanner(cache: context.cache)
    return try planner.plan(
      context.query, table: table, name: table.name.name, source: .named("pgrst_source"),
      alias: table.name.name, select: select, scope: .embedsOnly)
  }

  /// The root level's conditions and order, for an UPDATE/DELETE WHERE.
  private func rootConditions(_ table: TableInfo, _ context: Context) throws -> ReadPlan {
    var planner = ReadPlanner(cache: context.cache)
    return try planner.plan(
      context.query, table: table, name: table.name.name, source: .relation(table.name),
      select: [], scope: .rootOnly)
  }

  /// Runs a write; a singular `Accept` with other than one row, or `max-affected` exceeded under
  /// `handling=strict`, rolls it back.
  private func runWrite(_ statement: PGStatement, _ context: Context) throws -> ResultRow {
    let prefs = context.preferences
    let singular = context.media.isSingular
    let limit = prefs.strict == true ? prefs.maxAffected : nil
    guard singular || limit != nil else {
      return ResultRow(try run([statement], context, readOnly: false)[0])
    }
    let results = try run([statement], context, readOnly: false) { row in
      if singular && row.pageTotal != 1 {
        throw RESTError.singularity(rows: row.pageTotal)
      }
      if let limit, row.pageTotal > limit {
        throw RESTError.maxAffectedViolation(rows: row.pageTotal)
      }
    }
    return ResultRow(results[0])
  }

  /// PATCH/DELETE: 204 without a body, 200 with the rows. `Content-Range` as PostgREST's
  /// `actionResponse` has it: PATCH `0-(n-1)/n` (`*/0` for no row), DELETE `*/n` (as POST); the
  /// total `*` unless `Prefer: count=` asked for it.
  private func modifiedResponse(
    _ row: ResultRow, plan: ReadPlan?, isDelete: Bool, _ context: Context
  ) -> HTTPResponse {
    var headers = context.baseHeaders(contentType: plan != nil)
    let total = context.preferences.count != nil ? row.pageTotal : nil
    headers.append(
      name: "Content-Range",
      value: isDelete
        ? "*/" + (total.map(String.init) ?? "*")
        : RangeRules.contentRange(offset: 0, pageTotal: row.pageTotal, total: total))
    guard plan != nil else { return HTTPResponse(status: 204, headers: headers) }
    return HTTPResponse(status: 200, headers: headers, body: context.body(row))
  }

  /// `Location: /table?pk=eq.value` for `return=headers-only` when one row with a known primary
  /// key was inserted.
  private func location(_ table: TableInfo, body: RequestBody, row: ResultRow) -> String? {
    guard row.pageTotal == 1, !table.primaryKey.isEmpty else { return nil }
    let object = body.value.objectValue ?? body.value.arrayValue?.first?.objectValue
    var items: [String] = []
    for key in table.primaryKey {
      guard let value = object?.first(where: { $0.key == key })?.value else { return nil }
      let text: String
      switch value {
      case .string(let string): text = string
      case .number(let number): text = number.text
      case .bool(let flag): text = flag ? "true" : "false"
      default: return nil
      }
      items.append("\(PercentEncoding.encode(key))=eq.\(PercentEncoding.encode(text))")
    }
    return "/\(PercentEncoding.encode(table.name.name))?" + items.joined(separator: "&")
  }
}
