import SNMGateway

/// SQL for INSERT (and upsert), UPDATE and DELETE from a JSON body, decoded in Postgres as the
/// written columns' types (`json_to_recordset`), as PostgREST does (`mutatePlanToQuery`).
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

  /// `INSERT INTO t (cols) SELECT cols FROM json_to_recordset($1) AS pgrst_body(cols) ...`.
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
      append(" FROM ")
      if defaults.isEmpty {
        bodyRows(columns, function: "json_to_recordset", firstOnly: false) { writer in
          writer.bodyArray(body, isObject: isObject, type: "json")
        }
      } else {
        bodyRows(columns, function: "jsonb_to_recordset", firstOnly: false) { writer in
          writer.append("(SELECT jsonb_agg(jsonb_build_object(")
          writer.append(
            defaults.map { column in
              SQLText.literal(column.name) + ", " + (column.defaultExpression ?? "NULL")
            }.joined(separator: ", "))
          writer.append(") || \"pgrst_element\") FROM jsonb_array_elements(")
          writer.bodyArray(body, isObject: isObject, type: "jsonb")
          writer.append(") AS \"pgrst_element\")")
        }
      }
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

  /// `UPDATE t SET col = pgrst_body.col ... FROM json_to_record($1) AS pgrst_body(col type)
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
    if !columns.isEmpty {
      append(" FROM ")
      // An array body: its first element sets the columns.
      bodyRows(
        columns, function: isObject ? "json_to_record" : "json_to_recordset",
        firstOnly: !isObject
      ) { writer in writer.bind(body, as: "json") }
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

  /// `function(source) AS "pgrst_body"("col" type, ...)`: the body's rows typed as the written
  /// columns, so keys outside them are never read (PostgREST's `fromJsonBodyF`). A column whose
  /// domain has a `json AS domain` cast is read as json and parsed by the cast's function, in a
  /// subquery; `firstOnly` keeps the first row.
  private mutating func bodyRows(
    _ columns: [ColumnInfo], function: String, firstOnly: Bool,
    source: (inout SQLWriter) -> Void
  ) {
    let parsed = columns.contains { $0.representation?.fromJSON != nil }
    let alias = parsed || firstOnly ? "\"pgrst_row\"" : "\"pgrst_body\""
    if parsed || firstOnly {
      append("(SELECT ")
      append(
        columns.map { column in
          let value = alias + "." + SQLText.identifier(column.name)
          guard let parser = column.representation?.fromJSON else { return value }
          return parser.sql + "(" + value + ") AS " + SQLText.identifier(column.name)
        }.joined(separator: ", "))
      append(" FROM ")
    }
    append(function + "(")
    source(&self)
    append(") AS " + alias + "(")
    append(
      columns.map { column in
        SQLText.identifier(column.name) + " "
          + (column.representation?.fromJSON != nil ? "json" : column.fullType)
      }.joined(separator: ", "))
    append(")")
    if parsed || firstOnly {
      append(firstOnly ? " LIMIT 1) AS \"pgrst_body\"" : ") AS \"pgrst_body\"")
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
