import SNMGateway

/// Reads that run no code written in the database: their prelude sets only what Postgres's own
/// code sees, and their settings read is answered without asking Postgres.
///
/// PostgREST's prelude makes the request visible to the database's functions (the claims, the
/// method, path, headers and cookies as settings, `transaction_read_only` for a GET), and after
/// the rows it reads `response.headers` and `response.status` (and the gateway `DateStyle`, for
/// the dates it writes), which a function the read ran may have set. Only such a function reads
/// or sets them: a policy's, an operator's, a computed column's, a representation's, the
/// pre-request function. A read that can run none (its own table's columns, filtered and
/// ordered by operators of Postgres's own or in C, as a role no policy of the table applies to,
/// no pre-request function) has no reader for those settings, and writes nothing whether read
/// only or not: its prelude sets the role, `search_path`, `timezone` and the role's own settings
/// only, and turns `row_security` off, so that a policy the schema cache missed makes Postgres
/// refuse the read (it then goes again with the whole prelude) rather than run without the
/// claims. On a connection that has never run such a function either
/// (`PGConnection.ranOnlyKnownCode`, so none made a setting for the session), it sees neither
/// response setting and the `DateStyle` the server last reported for the connection
/// (`PGConnection.parameterStatus`; the prelude could change it only through a role's setting,
/// which rules the read out). Instructions of Postgres's a request (callgrind, the gateway's
/// pipeline for the primary-key read as a pgbench script): the settings read 27.5k, the five
/// request settings and `transaction_read_only` 40.7k.
enum KnownCodeReads {
  /// A plain read (`rowSecurity(_:)`): whether its table's policies may apply, and, when every
  /// one of them reads nothing of the request but its claims and the schema cache knows the
  /// schema version, the read's statement with the version's guard first in its WHERE
  /// (`ClaimsPolicies`).
  struct PlainRead: Sendable, Equatable {
    var rowSecurity: Bool
    var guardedSQL: String?
  }

  /// The prelude a read sends: the whole of it; that of a read of known code (no claims, row
  /// security off); or that of a read under policies of claims code (the claims too, row
  /// security on), whose statement is then the guarded one.
  enum Prelude: Equatable {
    case whole
    case knownCode
    case claims(guardedSQL: String)
  }

  /// `asked`'s plain read (`rowSecurity(_:)`), its guarded statement written when its table's
  /// policies are all of claims code; nil when it is no plain read.
  static func plainRead(_ asked: ReadPlan, cache: SchemaCache) throws(RESTError) -> PlainRead? {
    guard let rowSecurity = rowSecurity(asked) else { return nil }
    var read = PlainRead(rowSecurity: rowSecurity)
    if rowSecurity, asked.table?.claimsPolicies == true, let version = cache.schemaVersion {
      var sql = SQLWriter()
      sql.guardCondition = ClaimsPolicies.condition(version: version)
      try sql.select(asked, cache: cache)
      read.guardedSQL = sql.statement.sql
    }
    return read
  }

  /// The row security of the table `plan` reads when the read calls nothing but Postgres's own
  /// functions and operators (given `SchemaCache.readsMayRunDatabaseCode` is false): its own
  /// columns, no cast, JSON path, aggregate, embed or representation; nil otherwise.
  static func rowSecurity(_ plan: ReadPlan) -> Bool? {
    guard case .relation = plan.source, let table = plan.table, table.kind == .table,
      !table.hasRepresentations, plan.embeds.isEmpty
    else { return nil }
    func isColumn(_ field: FieldPath) -> Bool {
      field.path.isEmpty && table.column(field.name) != nil
    }
    for field in plan.fields where !field.isStar {
      guard field.aggregate == nil, field.cast == nil, !field.isRow, isColumn(field.field) else {
        return nil
      }
    }
    func plain(_ condition: Condition) -> Bool {
      switch condition {
      case .filter(let filter): return isColumn(filter.field)
      case .embedPresence: return false
      case .group(_, _, let children): return children.allSatisfy(plain)
      }
    }
    guard plan.conditions.allSatisfy(plain),
      plan.order.allSatisfy({ $0.relation == nil && isColumn($0.field) })
    else { return nil }
    return table.rowSecurity
  }

  /// The prelude a plain read `read` as `context`'s role sends. Known code's when it runs only
  /// known code: no policy applies to the role, no pre-request function, no operator of the
  /// database's own in a language other than C, and the role's settings set neither `DateStyle`
  /// nor a `response.*` setting. The claims' when, those otherwise the same, the table's
  /// policies are all of claims code (`read.guardedSQL`) and neither the role's settings nor
  /// the request's `search_path` say where `pg_catalog` is searched (the claims functions'
  /// bodies are read under them), and no guard has found the cache's schema version stale
  /// (`SchemaCache.staleVersion`). The whole prelude else.
  static func prelude(_ read: PlainRead?, _ context: RESTGateway.Context) -> Prelude {
    let cache = context.cache
    guard let read, !cache.readsMayRunDatabaseCode, cache.preRequest == nil,
      context.functionSettings.isEmpty
    else { return .whole }
    let settings = cache.roleSettings[context.auth.role] ?? []
    if settings.contains(where: { setting in
      let name = setting.name.lowercased()
      return name == "datestyle" || name.hasPrefix("response.")
    }) {
      return .whole
    }
    guard read.rowSecurity, !cache.rlsBypassers.contains(context.auth.role) else {
      return .knownCode
    }
    guard let guardedSQL = read.guardedSQL, !cache.staleVersion.isKnown,
      !settings.contains(where: { $0.name.lowercased() == "search_path" }),
      !cache.searchPathNamesCatalog, context.schema != "pg_catalog"
    else { return .whole }
    return .claims(guardedSQL: guardedSQL)
  }

  /// Sends `body` in `tx` (a plain read and the settings read after it unless `prelude` is the
  /// whole): when it runs only known code or claims code on a connection that has run only
  /// known code, without the settings read, whose answer is then `settings(dateStyle:)`. Under
  /// the claims' prelude the read is its guarded statement; when it fails (its guard found the
  /// schema changed, or a policy the cache did not know failed), the code it ran is not known.
  static func pipeline(
    _ body: [PGStatement], _ tx: PGTransaction, prelude: Prelude
  ) throws(PGError) -> [PGResult] {
    var body = body
    switch prelude {
    case .whole: return try tx.pipeline(body)
    case .knownCode: return try knownCodePipeline(body, tx)
    case .claims(let guardedSQL):
      body[0].sql = guardedSQL
      do {
        return try knownCodePipeline(body, tx)
      } catch {
        tx.connection.noteOtherCode()
        throw error
      }
    }
  }

  private static func knownCodePipeline(
    _ body: [PGStatement], _ tx: PGTransaction
  ) throws(PGError) -> [PGResult] {
    guard tx.connection.ranOnlyKnownCode,
      let dateStyle = tx.connection.parameterStatus("DateStyle")
    else { return try tx.pipeline(body, knownCodeOnly: true) }
    return try tx.pipeline(Array(body.dropLast()), knownCodeOnly: true)
      + [settings(dateStyle: dateStyle)]
  }

  /// Whether a read that failed with `error` under `prelude` goes again with the whole prelude:
  /// known code's when Postgres refused it for row security (`isRowSecurityRefusal`); claims
  /// code's when Postgres failed it, but not for a timeout: its guard's error
  /// (`ClaimsPolicies.schemaChanged`), and any other, since a policy the schema cache did not
  /// know of may fail without a setting it reads where the whole prelude would not (a read that
  /// fails for another reason fails again the same way).
  static func goesAgain(after error: PGError, _ prelude: Prelude) -> Bool {
    switch prelude {
    case .whole: false
    case .knownCode: isRowSecurityRefusal(error)
    case .claims: error.kind == .server && error.sqlState != "57014"
    }
  }

  /// Whether `error` is Postgres refusing a read of known code because a row-security policy
  /// applies to it after all: its prelude turns `row_security` off, so that a policy the schema
  /// cache did not know of (a role that lost BYPASSRLS, which reloads nothing; row security
  /// turned on just before the reload) fails the read instead of running without the claims.
  /// Its message ("query would be affected by row-level security policy for table ...") is
  /// translated under another `lc_messages`, so any 42501 counts: a read refused for want of a
  /// privilege is refused again the same way.
  static func isRowSecurityRefusal(_ error: PGError) -> Bool {
    error.sqlState == "42501"
  }

  /// The settings read's values from its result: its cells, or the answer known without asking
  /// (`settings(dateStyle:)`); nil when it is neither.
  static func settingsRead(
    _ result: PGResult
  ) -> (headers: String?, status: String?, dateStyle: String?)? {
    if let cells = result.cells {
      guard cells.rowCount == 1 else { return nil }
      let row = cells.row(0)
      return (row.text(0), row.text(1), row.text(2))
    }
    guard let known = result.rows.first, known.count == 3 else { return nil }
    return (known[0], known[1], known[2])
  }

  /// The settings read's answer for a read of known code on a connection that has run only
  /// known code: no `response.headers`, no `response.status`, the connection's `DateStyle`.
  static func settings(dateStyle: String) -> PGResult {
    PGResult(
      columns: ["current_setting", "current_setting", "current_setting"],
      columnTypes: [25, 25, 25], rows: [[nil, nil, dateStyle]], affectedRows: 1,
      commandTag: "SELECT 1")
  }
}
