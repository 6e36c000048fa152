import SNMQuery

/// What the database says about a table, for `snm realtime check`: whether Realtime publishes
/// it, what its old records hold, and what the checking user's role and claims may read of it.
public struct RealtimeTableFacts: Sendable, Equatable {
  /// The table is in the `supabase_realtime` publication.
  public var inPublication: Bool
  /// `pg_class.relreplident`: `d` default (the primary key), `f` full, `i` an index, `n` nothing.
  public var replicaIdentity: String
  public var rowSecurity: Bool
  /// The SELECT (or ALL) policies that apply to the role, by name.
  public var selectPolicies: [String]
  /// Rows the role and claims can read, and rows there are (each counted up to `sampleLimit`).
  public var visibleRows: Int
  public var rows: Int

  /// The most rows counted either way.
  public static let sampleLimit = RealtimeCheckQueries.sampleLimit

  public init(
    inPublication: Bool, replicaIdentity: String, rowSecurity: Bool, selectPolicies: [String],
    visibleRows: Int, rows: Int
  ) {
    self.inPublication = inPublication
    self.replicaIdentity = replicaIdentity
    self.rowSecurity = rowSecurity
    self.selectPolicies = selectPolicies
    self.visibleRows = visibleRows
    self.rows = rows
  }
}
