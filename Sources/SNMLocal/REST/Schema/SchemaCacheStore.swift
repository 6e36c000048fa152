import Synchronization

/// The current schema cache, shared by every request; loaded on first use, reloaded on demand.
///
///     let cache = try store.current(database: pool)
///     try store.reload(database: pool)          // after migrations
///
/// Only the first load holds the lock while it queries the catalog (requests have nothing to
/// serve without a cache); later reloads query outside the lock, so requests keep using the
/// current cache meanwhile, and swap the new one in when it is ready.
final class SchemaCacheStore: Sendable {
  private struct State {
    var cache: SchemaCache?
    /// The catalog document the cache was decoded from, to tell whether a reload changed it.
    var document: String?
    var loadedAt: ContinuousClock.Instant?
    var reloading = false
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
      let text = try SchemaIntrospection.loadText(
        database: database, defaultSchemas: defaultSchemas)
      let cache = try SchemaIntrospection.decode(text)
      state.cache = cache
      state.document = text
      state.loadedAt = .now
      return cache
    }
  }

  /// Loads the cache again from the catalog and returns it.
  @discardableResult
  func reload(database: PGPool) throws -> SchemaCache {
    let text = try SchemaIntrospection.loadText(database: database, defaultSchemas: defaultSchemas)
    let cache = try SchemaIntrospection.decode(text)
    state.withLock { state in
      state.cache = cache
      state.document = text
      state.loadedAt = .now
    }
    return cache
  }

  /// Reloads when the cache is older than `age` and no reload is under way (so a stream of bad
  /// names cannot reload it more than once per `age`); returns the new cache only when the
  /// catalog changed, else nil.
  func reloadIfOlder(than age: Duration, database: PGPool) -> SchemaCache? {
    let due = state.withLock { state -> Bool in
      if state.reloading { return false }
      if let loadedAt = state.loadedAt, loadedAt.duration(to: .now) < age { return false }
      state.reloading = true
      state.loadedAt = .now
      return true
    }
    guard due else { return nil }
    let text = try? SchemaIntrospection.loadText(database: database, defaultSchemas: defaultSchemas)
    let cache = text.flatMap { try? SchemaIntrospection.decode($0) }
    return state.withLock { state -> SchemaCache? in
      state.reloading = false
      guard let text, let cache, text != state.document else { return nil }
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
