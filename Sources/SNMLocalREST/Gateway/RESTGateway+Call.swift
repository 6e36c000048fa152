import SNMGateway

/// `rpc`: POST with JSON arguments, GET/HEAD with query arguments. As PostgREST, a GET runs any
/// function, VOLATILE ones too, in a read-only transaction: one that writes fails there with
/// Postgres' 25006 (405).
extension RESTGateway {
  func call(_ name: QualifiedName, _ context: Context) throws -> HTTPResponse {
    var context = context
    let cache = context.cache
    let routine: RoutineInfo
    let arguments: SQLWriter.CallArguments
    // A POST's query string holds filters on the result, never arguments: one without an
    // operator is 400 PGRST100 (PostgREST parses it as a filter, not as a GET's argument).
    if context.method == "POST" { try Self.refuseNonFilters(context.query) }
    switch context.method {
    case "POST" where SchemaCache.rawParameterType(Self.contentMedia(context)) != nil:
      let media = Self.contentMedia(context)
      routine = try cache.routine(name, rawBody: media)
      arguments = .wholeBody(
        body: try Self.rawArgument(context.request.body, binary: media == .octetStream),
        type: routine.parameters[0].type)
    case "POST" where Self.contentMedia(context) == .urlEncoded:
      // A form's fields are arguments as a GET's query parameters are.
      let given = RequestBody.formFields(context.request.body)
      routine = try cache.routine(name, argumentNames: Set(given.map(\.name)), wholeBody: false)
      arguments = Self.queryArguments(given, routine: routine)
    case "POST":
      let body = try RequestBody.parse(
        context.request.body, contentType: context.request.headers["Content-Type"],
        empty: .object([]))
      if let (object, names) = try CallInput.object(body, columns: context.query.columns) {
        routine = try cache.routine(name, argumentNames: names, wholeBody: true)
        if routine.takesWholeBody && !routine.accepts(argumentNames: names) {
          arguments = .wholeBody(body: body.text, type: routine.parameters[0].type)
        } else if names.isEmpty {
          arguments = .none
        } else {
          arguments = .jsonObject(
            body: object, parameters: routine.parameters.filter { names.contains($0.name) })
        }
      } else {
        routine = try cache.routine(name, argumentNames: [], wholeBody: true)
        guard routine.takesWholeBody else {
          throw RESTError.invalidBody("Empty or invalid json")
        }
        arguments = .wholeBody(body: body.text, type: routine.parameters[0].type)
      }
    case "GET", "HEAD":
      let given = context.query.arguments.filter { $0.name != "apikey" }
      routine = try cache.routine(name, argumentNames: Set(given.map(\.name)), wholeBody: false)
      arguments = Self.queryArguments(given, routine: routine)
    default:
      throw RESTError.invalidRPCMethod(context.method)
    }
    // The function's own `SET statement_timeout = ...` and the like hold for the whole
    // transaction, as PostgREST hoists them.
    context.functionSettings = routine.settings
    // Rows of a table are negotiated as that table's (its handlers apply); others as the
    // function's own (a function returning a media-type domain is its own handler).
    try context.negotiate(
      target: routine.returnedRelation.map {
        QualifiedName(schema: routine.name.schema, name: $0.name)
      }
        ?? routine.name)
    var plan: ReadPlan? = nil
    var computed: [String] = []
    if case .composite(let relation, let columns) = routine.returns {
      if let relation, let returned = cache.tables[relation] {
        computed = CallInput.computedNames(context.query, table: returned)
      }
      let table =
        relation.flatMap { cache.tables[$0] }
        ?? TableInfo(name: routine.name, kind: .view, columns: columns)
      var planner = ReadPlanner(cache: cache)
      var rows = try planner.plan(
        context.query, table: table, name: routine.name.name, source: .named("pgrst_source"),
        alias: routine.name.name)
      if routine.returnsSet {
        rows.range = try RangeRules.effective(
          header: context.method == "GET" ? context.request.headers["Range"] : nil,
          query: context.query.ranges[[]], maxRows: context.maxRows)
      }
      plan = rows
    }
    let prefs = context.preferences
    let maxAffected = prefs.strict == true ? prefs.maxAffected : nil
    if maxAffected != nil && !routine.returnsSet { throw RESTError.maxAffectedSingleRoutine }
    let count = context.preferences.count
    var sql = SQLWriter()
    try sql.callStatement(
      routine, arguments: arguments, computed: computed, plan: plan, cache: cache, count: count,
      countLimit: nil, shape: context.shape)
    if let answer = try planResponse(sql.statement, context) { return answer }
    let singular = context.media.isSingular
    // A call that may write is rolled back when its answer is refused: not one row for a
    // singular `Accept`, more than `max-affected` rows under `handling=strict`.
    let checksBeforeCommit = (singular && !context.isRead) || maxAffected != nil
    let results = try run(
      [sql.statement], context, readOnly: context.isRead,
      check: checksBeforeCommit
        ? { row in
          if singular && row.pageTotal != 1 { throw RESTError.singularity(rows: row.pageTotal) }
          if let maxAffected, row.pageTotal > maxAffected {
            throw RESTError.maxAffectedViolation(rows: row.pageTotal)
          }
        } : nil)
    if singular && ResultRow(results[0]).pageTotal != 1 {
      throw RESTError.singularity(rows: ResultRow(results[0]).pageTotal)
    }
    let row = ResultRow(results[0])
    if routine.returnsVoid {
      return try Self.applyingResponseSettings(
        HTTPResponse(status: 204, headers: context.baseHeaders(contentType: false)), row: row)
    }
    return try rowsResponse(
      row, total: count == nil ? nil : row.total, offset: plan?.range?.offset ?? 0, context)
  }

  /// The media type of the request body.
  static func contentMedia(_ context: Context) -> MediaType {
    RequestBody.mediaType(context.request.headers["Content-Type"])
  }

  /// A raw body as the text of its parameter: bytes as `bytea`'s hex input (`\x...`), text as
  /// it is (400 22021 for a NUL byte, which no Postgres text holds).
  static func rawArgument(_ body: [UInt8], binary: Bool) throws(RESTError) -> String {
    if binary {
      let digits = Array("0123456789abcdef".utf8)
      var hex: [UInt8] = [UInt8(ascii: "\\"), UInt8(ascii: "x")]
      hex.reserveCapacity(body.count * 2 + 2)
      for byte in body {
        hex.append(digits[Int(byte >> 4)])
        hex.append(digits[Int(byte & 0x0F)])
      }
      return String(decoding: hex, as: UTF8.self)
    }
    guard !body.contains(0) else {
      throw RESTError(
        status: 400, code: "22021", message: "invalid byte sequence for encoding \"UTF8\": 0x00")
    }
    return String(decoding: body, as: UTF8.self)
  }

  /// GET arguments bound with their parameter types; a repeated variadic argument becomes an
  /// array.
  static func queryArguments(
    _ given: [(name: String, value: String)], routine: RoutineInfo
  ) -> SQLWriter.CallArguments {
    var values: [(RoutineInfo.Parameter, String)] = []
    for parameter in routine.parameters {
      let matching = given.filter { $0.name == parameter.name }.map(\.value)
      guard let first = matching.first, let last = matching.last else { continue }
      if parameter.isVariadic && (matching.count > 1 || !first.hasPrefix("{")) {
        values.append((parameter, SQLText.arrayLiteral(matching)))
      } else {
        // A repeated argument: the last one counts (PostgREST's `HM.fromList`).
        values.append((parameter, last))
      }
    }
    return values.isEmpty ? .none : .values(values)
  }
}
