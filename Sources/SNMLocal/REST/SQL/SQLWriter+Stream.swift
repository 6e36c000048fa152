/// The statement of a streamed read: one result row per row of the answer, so the gateway sends
/// rows as Postgres produces them instead of one body Postgres built whole.
///
///     WITH pgrst_source AS (...) SELECT <total> AS total, pgrst_rows.page_total, pgrst_rows.line
///       [, pgrst_rows.header] FROM (SELECT 1) AS pgrst_one LEFT JOIN (SELECT
///       count(*) OVER () AS page_total, <line> AS line FROM pgrst_source AS _postgrest_t)
///       AS pgrst_rows ON true
///
/// Every row carries the page's row count (the window makes Postgres read the whole page before
/// the first row, so an error in any row surfaces before anything is sent) and the total; the
/// outer join keeps one row, with a NULL line, for an empty page. Each line is what `json_agg` or
/// the CSV `string_agg` would have put in the body (`ResultShape.expression`), so the bytes are
/// the same.
extension SQLWriter {
  /// The columns of a streamed read's rows.
  enum StreamColumn {
    static let total: Int32 = 0
    static let pageTotal: Int32 = 1
    static let line: Int32 = 2
    /// CSV only: the header line, on the first row.
    static let header: Int32 = 3
  }

  mutating func streamedReadStatement(
    _ plan: ReadPlan, cache: SchemaCache, count: CountMethod?, countLimit: Int?,
    shape: ResultShape
  ) throws(RESTError) {
    let row = "\"_postgrest_t\""
    let line: String
    var header: String? = nil
    switch shape {
    case .array(let strip):
      line = strip ? "json_strip_nulls(row_to_json(\(row)))::text" : "row_to_json(\(row))::text"
    case .csv:
      line = "substring(\(row)::text, 2, length(\(row)::text) - 2)"
      header =
        "CASE WHEN pg_catalog.row_number() OVER () = 1 THEN (SELECT coalesce(string_agg(\"k\", ','), '') "
        + "FROM json_object_keys(row_to_json(\(row))) AS \"k\") END"
    case .object, .custom, .none:
      throw RESTError(status: 500, code: "PGRSTX00", message: "internal: not a streamed shape")
    }
    append("WITH \"pgrst_source\" AS (")
    try select(plan, cache: cache)
    append(") SELECT ")
    try totalExpression(plan, cache: cache, count: count, countLimit: countLimit)
    append(", \"pgrst_rows\".\"page_total\", \"pgrst_rows\".\"line\"")
    if header != nil { append(", \"pgrst_rows\".\"header\"") }
    append(" FROM (SELECT 1) AS \"pgrst_one\" LEFT JOIN (SELECT pg_catalog.count(*) OVER () AS ")
    append("\"page_total\", \(line) AS \"line\"")
    if let header { append(", \(header) AS \"header\"") }
    append(" FROM \"pgrst_source\" AS \(row)) AS \"pgrst_rows\" ON true")
  }
}
