/// The statements of a streamed read: a count of the page (and the total when asked) first, then
/// one result row per row of the answer through a cursor, both in one snapshot (`REPEATABLE
/// READ`), so the head goes out once the count and the first batch are in and the rest follows
/// as Postgres produces it.
///
///     SELECT <total> AS total, (SELECT count(*) FROM (<the page's SELECT>) AS pgrst_page)
///       AS page_total, NULL AS body, NULL AS inserted
///     WITH pgrst_source AS (...) SELECT pgrst_rows.line [, pgrst_rows.header]
///       FROM (SELECT 1) AS pgrst_one LEFT JOIN (SELECT <line> AS line [, <header> AS header]
///       FROM pgrst_source AS _postgrest_t) AS pgrst_rows ON true
///
/// The count reads the page's rows without their columns: `SELECT 1` under the page's filters and
/// range for a plain page (no order to sort by), else the page's own SELECT, whose unused columns
/// Postgres leaves out (a stable computed column is not called); either is the number of rows the
/// cursor gives. The outer join
/// keeps one row, with a NULL line, for an empty page. Each line is what `json_agg` would have
/// put in the body, or for CSV the row's record text whose outer parentheses the gateway drops
/// (the `string_agg` of `ResultShape.expression` takes them off in SQL), so the bytes are the
/// same.
extension SQLWriter {
  /// The columns of a streamed read's rows.
  enum StreamColumn {
    static let line: Int32 = 0
    /// CSV only: the header line, on the first row.
    static let header: Int32 = 1
  }

  /// `response.headers` and `response.status` as the read left them so far (the pre-request
  /// function, the functions of the rows fetched), read before the head goes out; a
  /// `ResultRow`.
  static let streamedSettingsStatement =
    "SELECT NULL::bigint AS total, 0 AS page_total, NULL::text AS body, NULL::bigint AS inserted"
    + responseSettings

  /// For each type of `$1` (an `oid[]`), after looking through domains: the type, its base, the
  /// base's `typtype`, its element when it is an array, and whether a function casts it to json
  /// (`RowJSONEncoder.userTypeKinds`).
  static let userTypesStatement = """
    WITH RECURSIVE "base" ("asked", "oid", "hops") AS (
      SELECT "o", "o", 0 FROM pg_catalog.unnest($1::pg_catalog.oid[]) AS "o"
      UNION ALL
      SELECT "b"."asked", "t"."typbasetype", "b"."hops" + 1 FROM "base" AS "b"
        JOIN pg_catalog.pg_type AS "t" ON "t"."oid" = "b"."oid"
        WHERE "t"."typtype" = 'd' AND "b"."hops" < 32)
    SELECT "b"."asked", "b"."oid", "t"."typtype",
      CASE WHEN "t"."typsubscript" = 'pg_catalog.array_subscript_handler'::pg_catalog.regproc
        THEN "t"."typelem" END,
      EXISTS (SELECT 1 FROM pg_catalog.pg_cast AS "c" WHERE "c"."castsource" = "b"."oid"
        AND "c"."casttarget" = 'pg_catalog.json'::pg_catalog.regtype AND "c"."castmethod" = 'f')
    FROM "base" AS "b" JOIN pg_catalog.pg_type AS "t" ON "t"."oid" = "b"."oid"
    WHERE "t"."typtype" <> 'd'
    """

  /// The count of a streamed read, as a `ResultRow` (total, page total).
  mutating func streamedCountStatement(
    _ plan: ReadPlan, cache: SchemaCache, count: CountMethod?, countLimit: Int?
  ) throws(RESTError) {
    append("SELECT ")
    try totalExpression(plan, cache: cache, count: count, countLimit: countLimit)
    append(", (SELECT pg_catalog.count(*) FROM (")
    if plan.embeds.isEmpty && !plan.fields.contains(where: { $0.aggregate != nil }) {
      // Without embeds or groups the page holds the count's rows in any order: no sort.
      try countSource(plan, cache: cache)
      rangeClause(plan.range)
    } else {
      try select(plan, cache: cache)
    }
    append(") AS \"pgrst_page\") AS \"page_total\", NULL::text AS body, NULL::bigint AS inserted")
  }

  /// The cursor's query of a streamed read. With `columns` (a JSON array without stripped nulls)
  /// each row is a marker (`true`, NULL for the empty page's row) and the row's own columns, for
  /// `RowJSONEncoder` to write as JSON; else one line Postgres writes.
  mutating func streamedReadStatement(
    _ plan: ReadPlan, cache: SchemaCache, shape: ResultShape, columns: Bool = false
  ) throws(RESTError) {
    let row = "\"_postgrest_t\""
    if columns, case .array(stripNulls: false) = shape {
      append("WITH \"pgrst_source\" AS (")
      try select(plan, cache: cache)
      append(
        ") SELECT \"pgrst_rows\".* FROM (SELECT 1) AS \"pgrst_one\" LEFT JOIN (SELECT true AS "
          + "\"pgrst_row\", \(row).* FROM \"pgrst_source\" AS \(row)) AS \"pgrst_rows\" ON true")
      return
    }
    let line: String
    var header: String? = nil
    switch shape {
    case .array(let strip):
      line = strip ? "json_strip_nulls(row_to_json(\(row)))::text" : "row_to_json(\(row))::text"
    case .csv:
      line = "\(row)::text"
      header =
        "CASE WHEN pg_catalog.row_number() OVER () = 1 THEN (SELECT coalesce(string_agg(\"k\", ','), '') "
        + "FROM json_object_keys(row_to_json(\(row))) AS \"k\") END"
    case .object, .geoJSON, .custom, .none:
      throw RESTError(status: 500, code: "PGRSTX00", message: "internal: not a streamed shape")
    }
    append("WITH \"pgrst_source\" AS (")
    try select(plan, cache: cache)
    append(") SELECT \"pgrst_rows\".\"line\"")
    if header != nil { append(", \"pgrst_rows\".\"header\"") }
    append(" FROM (SELECT 1) AS \"pgrst_one\" LEFT JOIN (SELECT \(line) AS \"line\"")
    if let header { append(", \(header) AS \"header\"") }
    append(" FROM \"pgrst_source\" AS \(row)) AS \"pgrst_rows\" ON true")
  }
}
