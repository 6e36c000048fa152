extension RequestRole {
  /// The one statement that makes a transaction run as this role: a `select` of
  /// `set_config(…, true)` calls (PostgREST's `txVarQuery`), prepared, its result discarded.
  ///
  /// ```swift
  /// RequestRole(role: "anon", claims: #"{"role":"anon"}"#).prelude.sql
  /// // SELECT FROM (select set_config('role', $1, true),
  /// //   set_config('request.jwt.claims', $2, true)) AS "pgrst_settings"
  /// ```
  /// Fields set are written in a fixed order (role, claims, search_path, method, path, headers,
  /// cookies, timezone, then `settings`, then `transaction_read_only`), each value (and each
  /// `settings` name) a parameter, never spliced into the SQL: the text depends only on which
  /// fields are set, so one prepared statement per shape serves every request. The `select` is
  /// wrapped to return a row of no columns (`withoutColumns`).
  public var prelude: PGStatement {
    var parameters: [String?] = [role]
    parameters.reserveCapacity(8 + settings.count * 2)
    var shape = 0
    func add(_ value: String?, bit: Int) {
      guard let value else { return }
      shape |= 1 << bit
      parameters.append(value)
    }
    add(claims, bit: 0)
    add(searchPath, bit: 1)
    add(method, bit: 2)
    add(path, bit: 3)
    add(headers, bit: 4)
    add(cookies, bit: 5)
    add(timezone, bit: 6)
    for setting in settings {
      parameters.append(setting.name)
      parameters.append(setting.value)
    }
    let sql: String
    if settings.isEmpty && shape == Self.requestShape {
      // Most REST requests: written once.
      sql = readOnly ? Self.readRequestSQL : Self.writeRequestSQL
    } else {
      sql = Self.preludeSQL(shape: shape, settings: settings.count, readOnly: readOnly)
    }
    var statement = PGStatement(sql, parameters, prepared: true)
    // Only a failure counts (a bad role, a bad role setting): its row is never read.
    statement.form = .discarded
    return statement
  }

  /// The names of the optional fields, in `prelude`'s order (bit `n` of a shape is field `n`).
  static let fieldNames = [
    "request.jwt.claims", "search_path", "request.method", "request.path", "request.headers",
    "request.cookies", "timezone",
  ]

  /// A REST request's shape: claims, search_path, method, path, headers and cookies.
  static let requestShape = 0b0111111

  static let readRequestSQL = preludeSQL(shape: requestShape, settings: 0, readOnly: true)
  static let writeRequestSQL = preludeSQL(shape: requestShape, settings: 0, readOnly: false)

  /// The prelude's SQL for the fields in `shape`, `settings` more pairs and `readOnly`.
  static func preludeSQL(shape: Int, settings: Int, readOnly: Bool) -> String {
    var sql = "select set_config('role', $1, true)"
    var next = 2
    for (bit, name) in fieldNames.enumerated() where shape & (1 << bit) != 0 {
      sql += ", set_config('\(name)', $\(next), true)"
      next += 1
    }
    for _ in 0..<settings {
      sql += ", set_config($\(next), $\(next + 1), true)"
      next += 2
    }
    if readOnly { sql += ", set_config('transaction_read_only', 'on', true)" }
    return withoutColumns(sql)
  }

  /// A `select` of `set_config` calls wrapped so that it returns a row of no columns: Postgres
  /// then sends none of the values set (the request's headers, the claims) back, and libpq reads
  /// none (`SELECT FROM (<select>)`; volatile calls are never dropped from a subquery).
  static func withoutColumns(_ select: String) -> String {
    "SELECT FROM (" + select + ") AS \"pgrst_settings\""
  }
}
