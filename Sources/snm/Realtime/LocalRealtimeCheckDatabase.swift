import SNMGateway
import SNMLocalRealtime
import SNMQuery
import SNMShell
import SNMWire

/// A local project's database as `realtime check` reads it, as the cluster's superuser over its
/// socket: the catalog (``RealtimeCheckQueries``), the rows counted as the user's role and claims
/// in a transaction rolled back, and a private channel's policies probed by the local Realtime's
/// own ``RealtimePolicies`` (the code that authorises its joins).
struct LocalRealtimeCheckDatabase: RealtimeCheckDatabase {
  /// The superuser's connection string (`host=... dbname=postgres user=...`).
  var databaseURL: String

  func table(schema: String, name: String, role: String, claims: JSONValue) throws
    -> RealtimeTableFacts?
  {
    let connection = try PGConnection(conninfo: databaseURL)
    defer { connection.close() }
    let about = try connection.execute(RealtimeCheckQueries.table, [schema, name, role])
    guard let row = about.rows.first, row.count == 4 else { return nil }
    let count = RealtimeCheckQueries.count(SQLText.qualified(schema, name))
    let rows = Int(try connection.execute(count).rows.first?.first.flatMap { $0 } ?? "") ?? 0
    try connection.executeScript("begin")
    defer { _ = try? connection.executeScript("rollback") }
    _ = try connection.execute(
      RequestRole(
        role: role, claims: claims.serialized(),
        settings: [.init("request.jwt.claim.sub", claims["sub"]?.stringValue ?? "")]
      ).prelude)
    let visible = Int(try connection.execute(count).rows.first?.first.flatMap { $0 } ?? "") ?? 0
    return RealtimeTableFacts(
      inPublication: row[0] == "t", replicaIdentity: row[1] ?? "d",
      rowSecurity: row[2] == "true",
      selectPolicies: (row[3] ?? "").split(separator: ",").map(String.init),
      visibleRows: visible, rows: rows)
  }

  func channel(topic: String, claims: JSONValue) throws -> RealtimeChannelAccess {
    let pool = PGPool(conninfo: databaseURL, size: 1)
    guard
      let access = RealtimePolicies(pool: pool).access(topic: topic, claims: claims, presence: true)
    else {
      throw UsageError("the policies on realtime.messages could not be probed for \(topic)")
    }
    return RealtimeChannelAccess(read: access.read, write: access.write)
  }
}
