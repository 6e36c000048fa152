import SNMGateway
import SNMWire

/// POST (insert, upsert), PATCH (update) and DELETE on a table or view.
extension RESTGateway {
  func insert(_ table: TableInfo, _ context: Context) throws -> HTTPResponse {
    let body = try writtenBody(context)
    let names: [String]
    if let listed = context.query.columns {
      names = listed
    } else {
      names = try body.uniformKeys() ?? []
    }
    let columns = try uniqueColumns(names, of: table, context)
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
    let plan = try returnedRows(table, context, expandStar: tracksInserted)
    let returning: SQLWriter.Returning =
      tracksInserted
      ? .rowsAndInserted
      : plan.map { .rows(columns: Self.returnedColumns($0, table: table)) } ?? .count
    // `return=headers-only`: the primary key of the first row, as the database has it (a
    // sequence's value, a NULL), for `Location`.
    if plan == nil, prefs.returning == .headersOnly, let keyPlan = try keyRows(table, context) {
      return try insertReadingKey(keyPlan, table, context) { writer, returning in
        writer.insert(
          into: table, columns: columns, body: body.text, isObject: body.isObject,
          defaults: defaults, conflict: conflict, returning: returning)
      }
    }
    let statement = try writeStatement(plan, context, tracksInserted: tracksInserted) { writer in
      writer.insert(
        into: table, columns: columns, body: body.text, isObject: body.isObject,
        defaults: defaults, conflict: conflict, returning: returning)
    }
    if let answer = try planResponse(statement, context) { return answer }
    let row = try runWrite(statement, context)
    var headers = context.baseHeaders(contentType: plan != nil)
    headers.append(
      name: "Content-Range", value: "*/" + (prefs.count != nil ? String(row.pageTotal) : "*"))
    let status = (conflict?.merge == true && row.inserted == 0) ? 200 : 201
    return try Self.applyingResponseSettings(
      HTTPResponse(status: status, headers: headers, body: plan == nil ? [] : context.body(row)),
      row: row)
  }

  func update(_ table: TableInfo, _ context: Context) throws -> HTTPResponse {
    // An object, or an array of objects with the same keys (PostgREST reads both; `[]` and
    // `[{}]` set nothing, like `{}`).
    let body = try writtenBody(context)
    guard let bodyKeys = try body.uniformKeys() else {
      throw RESTError.invalidBody("Empty or invalid json")
    }
    let keys = Set(bodyKeys)
    var columns: [ColumnInfo] = []
    var defaulted: [ColumnInfo] = []
    var seen: Set<String> = []
    for name in context.query.columns ?? bodyKeys where seen.insert(name).inserted {
      let column = try context.cache.column(name, of: table)
      if !keys.contains(name) && context.preferences.missingDefault == true {
        defaulted.append(column)
      } else {
        columns.append(column)
      }
    }
    return try modify(table, context) { writer, root, returning throws(RESTError) in
      try writer.update(
        table, columns: columns, defaulted: defaulted, body: body.text, isObject: body.isObject,
        root: root,
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
    let statement = try writeStatement(plan, context, tracksInserted: false) {
      (writer: inout SQLWriter) throws(RESTError) in
      try write(
        &writer, root,
        plan.map { .rows(columns: Self.returnedColumns($0, table: table)) } ?? .count)
    }
    if let answer = try planResponse(statement, context) { return answer }
    let row = try runWrite(statement, context)
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
    let body = try writtenBody(context)
    let columns = try uniqueColumns(try body.uniformKeys() ?? [], of: table, context)
    let representation = context.preferences.returnRepresentation
    let plan = try returnedRows(table, context, expandStar: true)
    let statement = try writeStatement(plan, context, tracksInserted: true) { writer in
      writer.insert(
        into: table, columns: columns, body: body.text, isObject: body.isObject, defaults: [],
        conflict: SQLWriter.Conflict(columns: table.primaryKey, merge: true),
        returning: .rowsAndInserted, bodyFilters: root)
    }
    if let answer = try planResponse(statement, context) { return answer }
    let singular = context.media.isSingular
    let results = try run([statement], context, readOnly: false) { row in
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

  /// A write's body: a JSON object or array (400 "Empty or invalid json" otherwise).
  private func writtenBody(_ context: Context) throws(RESTError) -> RequestBody {
    let body = try RequestBody.parse(
      context.request.body, contentType: context.request.headers["Content-Type"])
    guard body.isObject || body.value.arrayValue != nil else {
      throw RESTError.invalidBody("Empty or invalid json")
    }
    return body
  }

  /// The columns `names` name, each once, in the order first named (400 PGRST204 for one the
  /// table does not have).
  private func uniqueColumns(
    _ names: [String], of table: TableInfo, _ context: Context
  ) throws(RESTError) -> [ColumnInfo] {
    var columns: [ColumnInfo] = []
    var seen: Set<String> = []
    for name in names where seen.insert(name).inserted {
      columns.append(try context.cache.column(name, of: table))
    }
    return columns
  }

  /// The statement of a write: `write` adds the INSERT, UPDATE or DELETE as `pgrst_source`,
  /// followed by the rows `plan` returns (none for `return=minimal`), shaped for the client.
  private func writeStatement(
    _ plan: ReadPlan?, _ context: Context, tracksInserted: Bool,
    _ write: (inout SQLWriter) throws(RESTError) -> Void
  ) throws(RESTError) -> PGStatement {
    var sql = SQLWriter()
    try sql.writeStatement(
      cache: context.cache, plan: plan, shape: plan == nil ? .none : context.shape,
      tracksInserted: tracksInserted, mutation: write)
    return sql.statement
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
    var plan = try planner.plan(
      context.query, table: table, name: table.name.name, source: .named("pgrst_source"),
      alias: table.name.name, select: select, scope: .embedsOnly)
    // The rows come back in the root `order` (PostgREST orders the returned representation).
    plan.order = context.query.order.filter { $0.path.isEmpty }.flatMap(\.terms)
    return plan
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

  /// An insert answered with `Location` and no body (`return=headers-only`): `write` adds the
  /// INSERT, returning the key columns `keyPlan` reads back.
  private func insertReadingKey(
    _ keyPlan: ReadPlan, _ table: TableInfo, _ context: Context,
    _ write: (inout SQLWriter, SQLWriter.Returning) -> Void
  ) throws -> HTTPResponse {
    var sql = SQLWriter()
    try sql.writeStatement(
      cache: context.cache, plan: keyPlan, shape: .array(stripNulls: false), tracksInserted: false
    ) { (writer: inout SQLWriter) throws(RESTError) in
      write(&writer, .rows(columns: Self.returnedColumns(keyPlan, table: table)))
    }
    let row = try runWrite(sql.statement, context)
    var headers = context.baseHeaders(contentType: false)
    headers.append(
      name: "Content-Range",
      value: "*/" + (context.preferences.count != nil ? String(row.pageTotal) : "*"))
    if let location = location(table, keys: row.body) {
      headers.append(name: "Location", value: location)
    }
    return HTTPResponse(status: 201, headers: headers)
  }

  /// The plan that reads back the primary key of the rows written (for `Location`), or nil for a
  /// table without one.
  private func keyRows(_ table: TableInfo, _ context: Context) throws -> ReadPlan? {
    guard !table.primaryKey.isEmpty else { return nil }
    let keys = table.columns.map(\.name).filter(table.primaryKey.contains)
    var planner = ReadPlanner(cache: context.cache)
    return try planner.plan(
      QueryParameters(), table: table, name: table.name.name, source: .named("pgrst_source"),
      alias: table.name.name, select: keys.map { .field(SelectField(field: FieldPath(name: $0))) },
      scope: .embedsOnly)
  }

  /// The columns a write's RETURNING needs for the rows it returns: the selected columns, the
  /// parent side of each embed's join and the root order; nil (all) for `*` or anything that is
  /// not a plain column of the table.
  static func returnedColumns(_ plan: ReadPlan, table: TableInfo) -> [String]? {
    var names: [String] = []
    for field in plan.fields {
      guard !field.isStar, field.aggregate == nil, table.column(field.field.name) != nil else {
        return nil
      }
      names.append(field.field.name)
    }
    for embed in plan.embeds {
      switch embed.relationship.cardinality {
      case .manyToOne(_, let pairs), .oneToMany(_, let pairs), .oneToOne(_, let pairs):
        names += pairs.map(\.0)
      case .manyToMany(let junction):
        names += junction.sourceColumns.map(\.0)
      case .computed:
        return nil  // the function takes the whole row
      }
    }
    for term in plan.order where term.relation == nil {
      guard table.column(term.field.name) != nil else { return nil }
      names.append(term.field.name)
    }
    var seen: Set<String> = []
    let unique = names.filter { seen.insert($0).inserted }
    return unique.isEmpty ? nil : unique
  }

  /// `Location: /table?pk=eq.value&other=is.null` from the first row's key columns (`keys` is
  /// the JSON array the key plan read back), as PostgREST's `locationF` builds it.
  private func location(_ table: TableInfo, keys: String) -> String? {
    guard let rows = try? JSONValue(parsing: Array(keys.utf8)),
      let object = rows.arrayValue?.first?.objectValue
    else { return nil }
    var items: [String] = []
    for (key, value) in object {
      let filter: String
      switch value {
      case .null: filter = "is.null"
      case .string(let string): filter = "eq." + PercentEncoding.encode(string)
      case .number(let number): filter = "eq." + number.text
      case .bool(let flag): filter = flag ? "eq.true" : "eq.false"
      default: filter = "eq." + PercentEncoding.encode(value.serialized())
      }
      items.append("\(PercentEncoding.encode(key))=\(filter)")
    }
    return "/\(PercentEncoding.encode(table.name.name))?" + items.joined(separator: "&")
  }
}
