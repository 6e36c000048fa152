/// The statements prepared on one connection: SQL text to name, least recently used first out.
///
/// ```swift
/// var prepared = PreparedStatements()
/// let name = prepared.use(sql) ?? prepared.newName()   // then PREPARE it, then add(sql, name:)
/// let evicted = prepared.makeRoom(for: sqls)            // names to DEALLOCATE first
/// ```
/// Each prepared plan stays in the backend's memory until deallocated (a 64-embed select holds
/// about 25 MiB), so at most `PGConnection.preparedLimit` are kept and the one used longest ago
/// makes way for a new one. Names are never reused.
struct PreparedStatements: Sendable {
  private typealias Entries = [String: (name: String, lastUse: Int)]
  private var entries: Entries = [:]
  /// The last few statements found and where their entries are, compared before any text is
  /// hashed: a request's statements are mostly the ones the last request on this connection
  /// used (the role's prelude, REST's settings read, often the read itself), and an equal text
  /// is found by comparing bytes, a different one at its first differing byte. Emptied when
  /// `entries` gains or loses one (its indices move then).
  private var recent: [(sql: String, index: Entries.Index)] = []
  private var next = 1
  private var clock = 0

  /// How many found statements `recent` keeps.
  static let recentLimit = 4

  /// How many are prepared.
  var count: Int { entries.count }

  /// The name of `sql` if it is prepared, without counting it as a use.
  func name(of sql: String) -> String? { entries[sql]?.name }

  /// The name of `sql` if it is prepared, counting it as used now.
  mutating func use(_ sql: String) -> String? {
    for item in recent where item.sql == sql { return touch(item.index) }
    // One lookup (a statement's text is hashed whole): the entry is updated where it is.
    guard let index = entries.index(forKey: sql) else { return nil }
    if recent.count == Self.recentLimit { recent.removeFirst() }
    recent.append((sql, index))
    return touch(index)
  }

  /// Counts the entry at `index` as used now; its name.
  private mutating func touch(_ index: Entries.Index) -> String {
    clock += 1
    entries.values[index].lastUse = clock
    return entries.values[index].name
  }

  /// A name never used on this connection.
  mutating func newName() -> String {
    defer { next += 1 }
    return "snm_p\(next)"
  }

  /// Records a statement whose PREPARE succeeded.
  mutating func add(_ sql: String, name: String) {
    clock += 1
    recent.removeAll(keepingCapacity: true)
    entries[sql] = (name, clock)
  }

  /// Forgets the least recently used statements, none of `needed`, until those of `needed` not
  /// prepared yet fit under `limit`; returns their names (to DEALLOCATE).
  mutating func makeRoom(
    for needed: [String], limit: Int = PGConnection.preparedLimit
  ) -> [String] {
    // Room for all of them already: nothing to hash or sort (the usual case).
    guard entries.count + needed.count > limit else { return [] }
    let wanted = Set(needed)
    let fresh = wanted.filter { entries[$0] == nil }.count
    let excess = entries.count + fresh - limit
    guard excess > 0 else { return [] }
    let evicted = entries.filter { !wanted.contains($0.key) }
      .sorted { $0.value.lastUse < $1.value.lastUse }.prefix(excess)
    recent.removeAll(keepingCapacity: true)
    for (sql, _) in evicted { entries[sql] = nil }
    return evicted.map(\.value.name)
  }
}
