/// The outer statement every request runs: the rows in a CTE, then one result row with the total
/// count, the page count and the body text, so the gateway passes Postgres' bytes through.
///
///     WITH pgrst_source AS (...) SELECT <total> AS total, pg_catalog.count(*) AS page_total,
///       <body> AS body, <inserted> AS inserted FROM pgrst_source AS _postgrest_t
extension SQLWriter {
  /// The names of the columns of the result row.
  enum ResultColumn {
    static let total = 0
    static let pageTotal = 1
    static let body = 2
    static let inserted = 3
    static let responseHeaders = 4
    static let responseStatus = 5
  }

  /// `response.headers` and `response.status` as the request's functions and triggers left them
  /// (PostgREST's `responseHeadersF`/`responseStatusF`). A setting once made on a connection
  /// reads as '' afterwards: PostgREST's `nullif(…, '')` is `ResultRow.setting`'s, in the gateway,
  /// where it costs Postgres 1.7k instructions less per call (the function's EXECUTE check and
  /// set-up at every execution).
  static let responseSettings =
    ", pg_catalog.current_setting('response.headers', true) AS response_headers"
    + ", pg_catalog.current_setting('response.status', true) AS response_status"

  /// A read of a table or view: `plan` is the root level, with its range already set.
  ///
  /// `countLimit` caps an `estimated` count's exact part (db-max-rows + 1).
  mutating func readStatement(
    _ plan: ReadPlan, cache: SchemaCache, count: CountMethod?, countLimit: Int?,
    shape: ResultShape
  ) throws(RESTError) {
    append("WITH \"pgrst_source\" AS (")
    try select(plan, cache: cache)
    append(") SELECT ")
    try totalExpression(plan, cache: cache, count: count, countLimit: countLimit)
    append(", pg_catalog.count(*) AS page_total, ")
    append(shape.expression(source: "\"pgrst_source\"", scalar: false))
    append(" AS body, NULL::bigint AS inserted" + Self.responseSettings)
    append(" FROM \"pgrst_source\" AS \"_postgrest_t\"")
  }

  /// A write: `mutation` writes the INSERT/UPDATE/DELETE; `plan` (over `pgrst_source`) shapes the
  /// returned rows, or nil when nothing is returned.
  mutating func writeStatement(
    cache: SchemaCache, plan: ReadPlan?, shape: ResultShape, tracksInserted: Bool,
    mutation: (inout SQLWriter) throws(RESTError) -> Void
  ) throws(RESTError) {
    append("WITH \"pgrst_source\" AS (")
    try mutation(&self)
    append("), \"pgrst_result\" AS (")
    if let plan {
      try select(plan, cache: cache)
    } else {
      append("SELECT 1 FROM \"pgrst_source\"")
    }
    append(") SELECT NULL::bigint AS total, pg_catalog.count(*) AS page_total, ")
    append(shape.expression(source: "\"pgrst_result\"", scalar: false))
    append(" AS body, ")
    append(
      tracksInserted
        ? "(SELECT pg_catalog.count(*) FROM \"pgrst_source\" WHERE \"pgrst_source\".\"pgrst_inserted\")"
        : "NULL::bigint")
    append(" AS inserted" + Self.responseSettings + " FROM \"pgrst_result\" AS \"_postgrest_t\"")
  }

  /// A function call: scalar results are aggregated as values; row results are read through
  /// `plan` (over `pgrst_source`), which takes filters, order, range and embeds.
  mutating func callStatement(
    _ routine: RoutineInfo, arguments: CallArguments, computed: [String] = [], plan: ReadPlan?,
    cache: SchemaCache, count: CountMethod?, countLimit: Int?, shape: ResultShape
  ) throws(RESTError) {
    append("WITH \"pgrst_source\" AS (")
    call(routine, arguments: arguments, computed: computed)
    append(")")
    var source = "\"pgrst_source\""
    if let plan {
      append(", \"pgrst_result\" AS (")
      try select(plan, cache: cache)
      append(")")
      source = "\"pgrst_result\""
    }
    append(" SELECT ")
    if let plan {
      try totalExpression(plan, cache: cache, count: count, countLimit: countLimit)
    } else {
      append(count == nil ? "NULL::bigint" : "(SELECT pg_catalog.count(*) FROM \"pgrst_source\")")
    }
    append(", pg_catalog.count(*) AS page_total, ")
    var bodyShape = shape
    if !routine.returnsSet, case .array(let strip) = shape {
      bodyShape = .object(stripNulls: strip)
    }
    append(bodyShape.expression(source: source, scalar: plan == nil))
    append(" AS body, NULL::bigint AS inserted" + Self.responseSettings)
    append(" FROM \(source) AS \"_postgrest_t\"")
  }

  /// The total count of the rows a read covers, without its range.
  mutating func totalExpression(
    _ plan: ReadPlan, cache: SchemaCache, count: CountMethod?, countLimit: Int?
  ) throws(RESTError) {
    switch count {
    case .exact, .estimated:
      append("(SELECT pg_catalog.count(*) FROM (")
      try countSource(plan, cache: cache)
      if count == .estimated, let countLimit {
        append(" LIMIT \(countLimit)")
      }
      append(") AS \"pgrst_count\")")
    case .planned, nil:
      append("NULL::bigint")
    }
    append(" AS total")
  }

  /// `EXPLAIN (FORMAT JSON)` of the count query, for a planned count.
  mutating func plannedCountStatement(_ plan: ReadPlan, cache: SchemaCache) throws(RESTError) {
    append("EXPLAIN (FORMAT JSON) ")
    try countSource(plan, cache: cache)
  }
}
