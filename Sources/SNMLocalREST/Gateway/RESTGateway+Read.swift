import SNMGateway

/// GET and HEAD on a table or view.
extension RESTGateway {
  func read(_ table: TableInfo, _ context: Context) throws -> HTTPResponse {
    let (plan, asked, streams) = try readPlan(table, context)
    if readsColumns(context),
      let answer = try columnsRead(asked, plan: plan, streams: streams, context)
    {
      return answer
    }
    let count = context.preferences.count
    var sql = SQLWriter()
    try sql.readStatement(
      asked, cache: context.cache, count: count, countLimit: context.maxRows.map { $0 + 1 },
      shape: context.shape)
    if let answer = try planResponse(sql.statement, context) { return answer }
    var read = sql.statement
    read.form = .bytesColumn(SQLWriter.ResultColumn.body)
    var statements = [read]
    if count == .planned || count == .estimated {
      var explain = SQLWriter()
      try explain.plannedCountStatement(plan, cache: context.cache)
      statements.append(explain.statement)
    }
    let results = try run(statements, context, readOnly: true)
    let row = ResultRow(results[0])
    if streams && row.pageTotal > Self.streamedBatch { return try streamedRead(plan, context) }
    let total = row.total(results: results, count: count, maxRows: context.maxRows)
    return try rowsResponse(row, total: total, offset: plan.range?.offset ?? 0, context)
  }

  /// The read's plan, the plan asked of the database and whether the answer may be streamed.
  ///
  /// An answer that may exceed a batch is first asked for one row more than a batch, the usual
  /// way (one prepared statement, one round trip): most fit, and are answered from it; one that
  /// does not is streamed.
  func readPlan(
    _ table: TableInfo, _ context: Context
  ) throws -> (plan: ReadPlan, asked: ReadPlan, streams: Bool) {
    var planner = ReadPlanner(cache: context.cache)
    var plan = try planner.plan(
      context.query, table: table, name: table.name.name, source: .relation(table.name))
    plan.range = try RangeRules.effective(
      header: context.method == "GET" ? context.request.headers["Range"] : nil,
      query: context.query.ranges[[]],
      maxRows: context.maxRows)
    let streams = !context.media.isPlan && streamsAnswer(plan, context)
    var asked = plan
    if streams {
      asked.range = QueryParameters.Range(
        offset: plan.range?.offset ?? 0, limit: Self.streamedBatch + 1)
    }
    return (plan, asked, streams)
  }

  /// The answer for rows read (tables, views, functions returning sets): status from the range,
  /// `Content-Range`, and the body Postgres built.
  func rowsResponse(
    _ row: ResultRow, total: Int?, offset: Int, _ context: Context
  ) throws -> HTTPResponse {
    if context.media.isSingular && row.pageTotal != 1 {
      throw RESTError.singularity(rows: row.pageTotal)
    }
    var response = pageHead(pageTotal: row.pageTotal, total: total, offset: offset, context)
    guard response.status < 400 else { return response }
    response.body = context.body(row)
    return try Self.applyingResponseSettings(response, row: row)
  }

  /// The status and headers of a page of rows (`Content-Range`; 206 for part of a known total),
  /// or the 416 error response when the offset lies past the total; a table read's both carry
  /// its `Content-Location` (PostgREST 13's `actionResponse`), a function's do not.
  func pageHead(pageTotal: Int, total: Int?, offset: Int, _ context: Context) -> HTTPResponse {
    var headers = context.baseHeaders()
    let contentRange = RangeRules.contentRange(offset: offset, pageTotal: pageTotal, total: total)
    let status: Int
    do {
      status = try RangeRules.status(offset: offset, pageTotal: pageTotal, total: total)
    } catch {
      var response = error.response
      response.headers["Content-Range"] = contentRange
      if let location = context.location { response.headers["Content-Location"] = location }
      return response
    }
    headers.append(name: "Content-Range", value: contentRange)
    if let location = context.location {
      headers.append(name: "Content-Location", value: location)
    }
    return HTTPResponse(status: status, headers: headers)
  }
}
