import SNMWire

/// A project's database as `realtime check` reads it: the catalog and rows of a table, and the
/// policies of a private channel, each for the checking user's role and claims. The shell reads
/// no database itself; the snm binary gives one for a local project (``RealtimeCheckDatabases``).
public protocol RealtimeCheckDatabase: Sendable {
  /// What the database says about `schema.name` for `role` with `claims` (a JSON object); nil
  /// when the table does not exist.
  func table(schema: String, name: String, role: String, claims: JSONValue) throws
    -> RealtimeTableFacts?

  /// What the policies on `realtime.messages` let `claims` do on `topic` (without
  /// `realtime:`), probed as Realtime probes them.
  func channel(topic: String, claims: JSONValue) throws -> RealtimeChannelAccess
}
