/// `rpc`: POST with JSON arguments, GET/HEAD with query arguments. As PostgREST, a GET runs any
/// function, VOLATILE ones too, in a read-only transaction: one that writes fails there with
/// Postgres' 25006 (405).
extension RESTGateway {
  func call(_ name: QualifiedName, _ context: Context) throws -> HTTPResponse {
    let cache = context.cache
    let routine: RoutineInfo
    let arguments: SQLWriter.CallArguments
    switch context.method {
    case "POST":
      let body = try RequestBody.parse(
        context.request.body, contentType: context.request.headers["Content-Type"],
        empty: .object([]))
      if let members = body.value.objectValue {
        let names = Set(members.map(\.key))
        routine = try cache.routine(name, argumentNames: names, wholeBody: true)
        if routine.takesWholeBody && !routine.accepts(argumentNames: names) {
          arguments = .wholeBody(body: body.text, type: routine.parameters[0].type)
        } else if members.isEmpty {
          arguments = .none
        } else {
          arguments = .jsonObject(
            body: body.text, parameters: routine.parameters.filter { names.contains($0.name) })
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
    var plan: ReadPlan? = nil
    if case .composite(let relation, let columns) = routine.returns {
      let table =
        relation.flatMap { cache.tables[$0] }
        ?? TableInfo(name: routine.name, kind: .view, columns: columns)
      var planner = ReadPlanner(cache: cache)
      var rows = try planner.plan(
        context.query, table: table, name: routine.name.name, source: .named("pgrst_source"),
        alias: routine.name.name)
      if routine.returnsSet {
        rows.range = try RangeRules.effective(
          header: context.isRead ? context.request.headers["Range"] : nil,
          query: context.query.ranges[[]], maxRows: context.maxRows)
      }
      plan = rows
    }
    let count = context.preferences.count
    var sql = SQLWriter()
    try sql.callStatement(
      routine, arguments: arguments, plan: plan, cache: cache, count: count,
      countLimit: nil, shape: context.shape)
    let singular = context.media.isSingular
    let results = try run(
      [sql.statement], context, readOnly: context.isRead,
      check: singular && !context.isRead
        ? { row in
          if row.pageTotal != 1 { throw RESTError.singularity(rows: row.pageTotal) }
        } : nil)
    if singular && ResultRow(results[0]).pageTotal != 1 {
      throw RESTError.singularity(rows: ResultRow(results[0]).pageTotal)
    }
    let row = ResultRow(results[0])
    if routine.returnsVoid {
      return HTTPResponse(status: 204, headers: context.baseHeaders(contentType: false))
    }
    return try rowsResponse(
      row, total: count == nil ? nil : row.total, offset: plan?.range?.offset ?? 0, context)
  }

  /// GET arguments bound with their parameter types; a repeated variadic argument becomes an
  /// array.
  static func queryArguments(
    _ given: [(name: String, value: String)], routine: RoutineInfo
  ) -> SQLWriter.CallArguments {
    var values: [(RoutineInfo.Parameter, String)] = []
    for parameter in routine.parameters {
      let matching = given.filter { $0.name == parameter.name }.map(\.value)
      guard let first = matching.first else { continue }
      if parameter.isVariadic && (matching.count > 1 || !first.hasPrefix("{")) {
        values.append((parameter, SQLWriter.arrayLiteral(matching)))
      } else {
        values.append((parameter, first))
      }
    }
    return values.isEmpty ? .none : .values(values)
  }
}
