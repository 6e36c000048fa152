import Synchronization

extension RequestRole {
  /// The one statement that makes a transaction run as this role: `set_config(…, true)` calls
  /// (PostgREST's `txVarQuery`), prepared, its result discarded.
  ///
  /// ```swift
  /// RequestRole(role: "anon", claims: #"{"role":"anon"}"#).prelude.sql
  /// // SELECT WHERE set_config('role', $1, true) IS NOT NULL
  /// //   AND set_config('request.jwt.claims', $2, true) IS NOT NULL
  /// ```
  /// Fields set are written in a fixed order (role, claims, search_path, method, path, headers,
  /// cookies, timezone, then `settings`, then `transaction_read_only`, then `row_security`), each value (and each
  /// `settings` name) a parameter, never spliced into the SQL: the text depends only on which
  /// fields are set, so one prepared statement per shape serves every request. The calls are the
  /// conditions of a `SELECT` of no columns (`withoutColumns`).
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
    } else if settings.isEmpty && shape == Self.searchPathShape && !readOnly && rowSecurityOff {
      // A REST read of known code (role and search_path only): written once too.
      sql = Self.searchPathSQL
    } else {
      sql = Self.writtenSQL(
        shape: shape, settings: settings.count, readOnly: readOnly, rowSecurityOff: rowSecurityOff)
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

  /// The role and search_path alone.
  static let searchPathShape = 0b0000010

  /// A REST read of known code: the role and search_path, row security off.
  static let searchPathSQL = preludeSQL(
    shape: searchPathShape, settings: 0, readOnly: false, rowSecurityOff: true)
  static let readRequestSQL = preludeSQL(shape: requestShape, settings: 0, readOnly: true)
  static let writeRequestSQL = preludeSQL(shape: requestShape, settings: 0, readOnly: false)

  /// The prelude SQL of each shape met (`preludeSQL`'s arguments as one key), written once: a
  /// role with settings of its own (snm local gives anon and authenticated a
  /// `statement_timeout`) has no statement written in advance, and its prelude was written anew
  /// for every request. Shapes of more than `writtenSettings` settings are written each time (a
  /// bound on the cache; roles and functions set few).
  private static let written = Mutex<[Int: String]>([:])
  private static let writtenSettings = 64

  /// `preludeSQL`, from `written` when it was written before.
  static func writtenSQL(
    shape: Int, settings: Int, readOnly: Bool, rowSecurityOff: Bool
  ) -> String {
    guard settings <= writtenSettings else {
      return preludeSQL(
        shape: shape, settings: settings, readOnly: readOnly, rowSecurityOff: rowSecurityOff)
    }
    // The shape's bits first, one a field; the flags and the count above them, wherever the
    // fields end (a field added moves them up instead of colliding with them).
    let fields = fieldNames.count
    let key =
      shape | (readOnly ? 1 << fields : 0) | (rowSecurityOff ? 1 << (fields + 1) : 0)
      | settings << (fields + 2)
    if let sql = written.withLock({ $0[key] }) { return sql }
    let sql = preludeSQL(
      shape: shape, settings: settings, readOnly: readOnly, rowSecurityOff: rowSecurityOff)
    written.withLock { $0[key] = sql }
    return sql
  }

  /// The prelude's SQL for the fields in `shape`, `settings` more pairs, `readOnly` and
  /// `rowSecurityOff`.
  static func preludeSQL(
    shape: Int, settings: Int, readOnly: Bool, rowSecurityOff: Bool = false
  ) -> String {
    var calls = ["set_config('role', $1, true)"]
    var next = 2
    for (bit, name) in fieldNames.enumerated() where shape & (1 << bit) != 0 {
      calls.append("set_config('\(name)', $\(next), true)")
      next += 1
    }
    for _ in 0..<settings {
      calls.append("set_config($\(next), $\(next + 1), true)")
      next += 2
    }
    if readOnly { calls.append("set_config('transaction_read_only', 'on', true)") }
    if rowSecurityOff { calls.append("set_config('row_security', 'off', true)") }
    return withoutColumns(calls)
  }

  /// `set_config` calls as the conditions of a `SELECT` of no columns and no table: Postgres
  /// evaluates them once, in order (a Result node's one-time filter; `AND` stops only at a false
  /// or null one, and `set_config` returns the value set, never null), sends back a row of no
  /// columns, and none of the values set (the request's headers, the claims), which libpq then
  /// reads none of. It costs Postgres 6.5k instructions less per request than the same calls as
  /// the columns of a subquery (`SELECT FROM (select …) AS "pgrst_settings"`), whose projection
  /// it built at every execution (callgrind, pgbench scripts of a REST read's statements).
  static func withoutColumns(_ calls: [String]) -> String {
    "SELECT WHERE " + calls.joined(separator: " IS NOT NULL AND ") + " IS NOT NULL"
  }
}
