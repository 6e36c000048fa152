import SNMGateway
import SNMWire

/// `Accept: application/vnd.pgrst.plan+json|text`: the execution plan of the request's statement
/// instead of its rows, when the project enables it (`pgrst.db_plan_enabled`), as PostgREST's
/// `explainF` runs it: `EXPLAIN (FORMAT JSON|TEXT[, ANALYZE, VERBOSE, SETTINGS, BUFFERS, WAL])`
/// over the same statement, in the same transaction and role.
extension RESTGateway {
  /// The plan answer for `statement`, or nil when the negotiated type is not a plan. `ANALYZE`
  /// runs the statement: a write with it is kept (db-tx-end = commit, as on Supabase).
  func planResponse(_ statement: PGStatement, _ context: Context) throws -> HTTPResponse? {
    guard case .plan(_, let format, let options) = context.media else { return nil }
    let explain =
      "EXPLAIN (FORMAT " + format.rawValue.uppercased()
      + options.map { ", " + $0.rawValue.uppercased() }.joined() + ") "
    let results = try run(
      [PGStatement(explain + statement.sql, statement.parameters)], context,
      readOnly: context.isRead)
    let text = results[0].rows.compactMap { $0.first ?? nil }.joined(separator: "\n")
    return HTTPResponse(status: 200, headers: context.baseHeaders(), body: Array(text.utf8))
  }
}
