import Synchronization

/// The current schema cache, shared by every request; loaded on first use, reloaded on demand.
///
///     let cache = try store.current(database: pool)
///     try store.reload(database: pool)          // after migrations
///
/// Loading holds the lock, so concurrent first requests load once.
final class SchemaCacheStore: Sendable {
  private struct State {
    var cache: SchemaCache?
    var loadedAt: ContinuousClock.Instant?
  }

  private let state = Mutex(State())
  private let defaultSchemas: [String]

  init(defaultSchemas: [String]) {
    self.defaultSchemas = defaultSchemas
  }

  /// The cache, loading it if there is none yet. Throws `PGError` or 503 PGRST002.
  func current(database: PGPool) throws -> SchemaCache {
    try state.withLock { state in
      if let cache = state.cache { return cache }
      let cache = try SchemaIntrospection.load(database: database, defaultSchemas: defaultSchemas)
      state.cache = cache
      state.loadedAt = .now
      return cache
    }
  }

  /// Loads the cache again from the catalog and returns it.
  @discardableResult
  func reload(database: PGPool) throws -> SchemaCache {
    try state.withLock { state in
      let cache = try SchemaIntrospection.load(database: database, defaultSchemas: defaultSchemas)
      state.cache = cache
      state.loadedAt = .now
      return cache
    }
  }

  /// Reloads when the cache is older than `age` (so a stream of bad names cannot reload it more
  /// than once per `age`); returns the new cache, or nil when it was fresh.
  func reloadIfOlder(than age: Duration, database: PGPool) -> SchemaCache? {
    state.withLock { state in
      if let loadedAt = state.loadedAt, loadedAt.duration(to: .now) < age { return nil }
      guard
        let cache = try? SchemaIntrospection.load(
          database: database, defaultSchemas: defaultSchemas)
      else { return nil }
      state.cache = cache
      state.loadedAt = .now
      return cache
    }
  }

  /// Forgets the cache; the next request loads it.
  func invalidate() {
    state.withLock { $0.cache = nil }
  }
}
