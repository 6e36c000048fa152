/// SQL for INSERT (and upsert), UPDATE and DELETE from a JSON body, decoded in Postgres against
/// the table's row type (`json_populate_recordset`), as PostgREST does (`mutatePlanToQuery`).
extension SQLWriter {
  /// What a mutation returns to the statement around it.
  enum Returning {
    /// `RETURNING 1`: only the count (no SELECT privilege or policy needed on the rows).
    case count
    /// The rows' columns named (nil: all): only what the returned representation reads, so a
    /// role with column-level SELECT grants gets back the columns it may read.
    case rows(columns: [String]?)
    /// The whole rows and `pgrst_inserted` (upserts: inserted rather than updated).
    case rowsAndInserted
  }

  /// `ON CONFLICT (cols) DO UPDATE SET ... | DO NOTHING`.
  struct Conflict {
    var columns: [String]
    var merge: Bool
  }

  /// `INSERT INTO t (cols) SELECT cols FROM json_populate_recordset(NULL::t, $1) ...`.
  ///
  /// `body` is the JSON text as received; `isObject` wraps a single object into an array in SQL.
  /// `defaults` lists, for `Prefer: missing=default`, the columns whose catalog default fills
  /// keys an element lacks.
  /// `bodyFilters` (PUT) keep only the body rows that match them.
  mutating func insert(
    into table: TableInfo, columns: [ColumnInfo], body: String, isObject: Bool,
    defaults: [ColumnInfo], conflict: Conflict?, returning: Returning, bodyFilters: [Filter] = []
  ) {
    append("INSERT INTO " + table.name.sql)
    if columns.isEmpty {
      if isObject {
        append(" DEFAULT VALUES")
      } else {
        append(" SELECT FROM json_array_elements(")
        bind(body, as: "json")
        append(")")
      }
    } else {
      append(" (" + columns.map { SQLText.identifier($0.name) }.joined(separator: ", ") + ")")
      append(" SELECT ")
      append(
        columns.map { "\"pgrst_body\"." + SQLText.identifier($0.name) }.joined(separator: ", "))
      if defaults.isEmpty {
        append(" FROM json_populate_recordset(NULL::\(table.name.sql), ")
        bodyArray(body, isObject: isObject, type: "json")
      } else {
        append(" FROM jsonb_populate_recordset(NULL::\(table.name.sql), (SELECT jsonb_agg(")
        append("jsonb_build_object(")
        append(
          defaults.map { column in
            SQLText.literal(column.name) + ", " + (column.defaultExpression ?? "NULL")
          }.joined(separator: ", "))
        append(") || \"pgrst_element\") FROM jsonb_array_elements(")
        bodyArray(body, isObject: isObject, type: "jsonb")
        append(") AS \"pgrst_element\")")
      }
      append(") AS \"pgrst_body\"")
      for (index, filter) in bodyFilters.enumerated() {
        append(index == 0 ? " WHERE " : " AND ")
        self.filter(filter, reference: "\"pgrst_body\"", table: table)
      }
    }
    if let conflict, !conflict.columns.isEmpty {
      append(
        " ON CONFLICT ("
          + conflict.columns.map(SQLText.identifier).joined(separator: ", ") + ")")
      if conflict.merge && !columns.isEmpty {
        append(" DO UPDATE SET ")
        append(
          columns.map { column in
            let name = SQLText.identifier(column.name)
            return "\(name) = EXCLUDED.\(name)"
          }.joined(separator: ", "))
      } else {
        append(" DO NOTHING")
      }
    }
    returningClause(returning, table: table)
  }

  /// `UPDATE t SET col = pgrst_body.col ... FROM json_populate_record(NULL::t, $1) AS pgrst_body
  /// WHERE ...`; `defaulted` columns are set to DEFAULT (`missing=default`).
  mutating func update(
    _ table: TableInfo, columns: [ColumnInfo], defaulted: [ColumnInfo], body: String,
    isObject: Bool = true, root: ReadPlan, range: QueryParameters.Range?, returning: Returning
  ) throws(RESTError) {
    if columns.isEmpty && defaulted.isEmpty {
      // Nothing to set: PostgREST selects no rows rather than writing `SET` with nothing.
      append("SELECT \(table.name.sql).* FROM \(table.name.sql) WHERE false")
      return
    }
    append("UPDATE " + table.name.sql + " SET ")
    var assignments = columns.map { column in
      SQLText.identifier(column.name) + " = \"pgrst_body\"." + SQLText.identifier(column.name)
    }
    assignments += defaulted.map { SQLText.identifier($0.name) + " = DEFAULT" }
    append(assignments.joined(separator: ", "))
    if isObject {
      append(" FROM json_populate_record(NULL::\(table.name.sql), ")
      bind(body, as: "json")
      append(") AS \"pgrst_body\"")
    } else {
      // An array body: its first element sets the columns.
      append(" FROM (SELECT * FROM json_populate_recordset(NULL::\(table.name.sql), ")
      bind(body, as: "json")
      append(") LIMIT 1) AS \"pgrst_body\"")
    }
    try mutationWhere(table, root: root, range: range)
    returningClause(returning, table: table)
  }

  /// `DELETE FROM t WHERE ...`.
  mutating func delete(
    from table: TableInfo, root: ReadPlan, range: QueryParameters.Range?, returning: Returning
  ) throws(RESTError) {
    append("DELETE FROM " + table.name.sql)
    try mutationWhere(table, root: root, range: range)
    returningClause(returning, table: table)
  }

  /// The root conditions; with `limit`/`offset`, only the rows of that range in `order`.
  private mutating func mutationWhere(
    _ table: TableInfo, root: ReadPlan, range: QueryParameters.Range?
  ) throws(RESTError) {
    var rootOnly = root
    rootOnly.embeds = []
    guard let range else {
      try whereClause(rootOnly, join: nil, countMode: false)
      return
    }
    append(" WHERE \(table.name.sql).ctid = ANY(ARRAY(SELECT \(table.name.sql).ctid ")
    from(rootOnly, join: nil)
    try whereClause(rootOnly, join: nil, countMode: false)
    try orderClause(rootOnly)
    if let limit = range.limit {
      append(" LIMIT ")
      integer(limit)
    }
    append(" OFFSET ")
    integer(max(0, range.offset))
    append("))")
  }

  private mutating func returningClause(_ returning: Returning, table: TableInfo) {
    switch returning {
    case .count: append(" RETURNING 1")
    case .rows(nil): append(" RETURNING \(table.name.sql).*")
    case .rows(let columns?):
      append(
        " RETURNING "
          + columns.map { table.name.sql + "." + SQLText.identifier($0) }.joined(separator: ", "))
    case .rowsAndInserted:
      append(" RETURNING \(table.name.sql).*, \(table.name.sql).xmax = 0 AS \"pgrst_inserted\"")
    }
  }

  /// The body as a JSON array: as is, or a single object wrapped in one.
  private mutating func bodyArray(_ body: String, isObject: Bool, type: String) {
    if isObject {
      append("\(type)_build_array(")
      bind(body, as: type)
      append(")")
    } else {
      bind(body, as: type)
    }
  }
}
