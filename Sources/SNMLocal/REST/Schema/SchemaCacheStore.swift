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
    /// The catalog document the cache was decoded from, to tell whether a reload changed it.
    var document: String?
    var loadedAt: ContinuousClock.Instant?

    mutating func load(database: PGPool, defaultSchemas: [String]) throws -> SchemaCache {
      let text = try SchemaIntrospection.loadText(
        database: database, defaultSchemas: defaultSchemas)
      let cache = try SchemaIntrospection.decode(text)
      self.cache = cache
      document = text
      loadedAt = .now
      return cache
    }
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
      return try state.load(database: database, defaultSchemas: defaultSchemas)
    }
  }

  /// Loads the cache again from the catalog and returns it.
  @discardableResult
  func reload(database: PGPool) throws -> SchemaCache {
    try state.withLock { state in
      try state.load(database: database, defaultSchemas: defaultSchemas)
    }
  }

  /// Reloads when the cache is older than `age` (so a stream of bad names cannot reload it more
  /// than once per `age`); returns the new cache only when the catalog changed, else nil.
  func reloadIfOlder(than age: Duration, database: PGPool) -> SchemaCache? {
    state.withLock { state in
      if let loadedAt = state.loadedAt, loadedAt.duration(to: .now) < age { return nil }
      guard
        let text = try? SchemaIntrospection.loadText(
          database: database, defaultSchemas: defaultSchemas)
      else { return nil }
      state.loadedAt = .now
      guard text != state.document, let cache = try? SchemaIntrospection.decode(text) else {
        return nil
      }
      state.cache = cache
      state.document = text
      return cache
    }
  }

  /// Forgets the cache; the next request loads it.
  func invalidate() {
    state.withLock { $0.cache = nil }
  }
}
