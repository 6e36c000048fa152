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

  /// Whether a read of a table with `rowSecurity` (`rowSecurity(_:)`) as `context`'s role
  /// runs only known code: no policy applies to the role, no pre-request function, no operator
  /// of the database's own in a language other than C, and the role's settings set neither
  /// `DateStyle` nor a `response.*` setting.
  static func runsOnlyKnownCode(rowSecurity: Bool?, _ context: RESTGateway.Context) -> Bool {
    let cache = context.cache
    guard let rowSecurity, !cache.readsMayRunDatabaseCode, cache.preRequest == nil,
      context.functionSettings.isEmpty,
      !rowSecurity || cache.rlsBypassers.contains(context.auth.role)
    else { return false }
    return !(cache.roleSettings[context.auth.role] ?? []).contains { setting in
      let name = setting.name.lowercased()
      return name == "datestyle" || name.hasPrefix("response.")
    }
  }

  /// Sends `body` in `tx` (a plain read and the settings read after it when `knownCode`): when
  /// it runs only known code on a connection that has run only known code, without the
  /// settings read, whose answer is then `settings(dateStyle:)`.
  static func pipeline(
    _ body: [PGStatement], _ tx: PGTransaction, knownCode: Bool
  ) throws(PGError) -> [PGResult] {
    guard knownCode else { return try tx.pipeline(body) }
    guard tx.connection.ranOnlyKnownCode,
      let dateStyle = tx.connection.parameterStatus("DateStyle")
    else { return try tx.pipeline(body, knownCodeOnly: true) }
    return try tx.pipeline(Array(body.dropLast()), knownCodeOnly: true)
      + [settings(dateStyle: dateStyle)]
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
