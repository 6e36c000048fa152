import Foundation
import SNMGateway
import Synchronization

/// The current schema cache, shared by every request; loaded on first use, reloaded when the
/// database says its schema changed (`NOTIFY pgrst`, which the DDL event triggers send), never
/// because a request named something unknown: anyone could force reloads that way.
///
///     let (cache, version) = try store.current(database: pool)
///     try store.reload(database: pool)          // after migrations, or on NOTIFY pgrst
///
/// Only the first load holds the lock while it queries the catalog (requests have nothing to
/// serve without a cache); later reloads query outside the lock, so requests keep using the
/// current cache meanwhile, and swap the new one in when it is ready.
///
/// A request that names something unknown catches up with the listener (`catchUp`): it sends a
/// notification of its own on `syncChannel` and waits until the listener has handled it.
/// Postgres delivers notifications in commit order, so every `NOTIFY pgrst` of DDL committed
/// before the request has been heard, and its reload finished, by then: DDL followed at once
/// by a request finds the new object, and an unknown name costs one NOTIFY, not a reload.
final class SchemaCacheStore: Sendable {
  /// The channel of the notifications requests send to catch up with the listener.
  static let syncChannel = "snm_pgrst_sync"

  private struct State {
    var cache: SchemaCache?
    /// Bumped at every cache swap, so a request knows whether its cache was replaced.
    var version = 0
  }

  /// The listener's side, under a lock of its own: the first load holds `state`'s lock while it
  /// queries the catalog, and the listener (which the gateway waits for before it serves) must
  /// not wait for that load.
  private struct Sync {
    /// Whether a listener is in place (catching up needs it); the sync tokens sent and the
    /// highest one the listener has handled.
    var listening = false
    var tokensSent = 0
    var tokenHandled = 0
  }

  private let state = Mutex(State())
  private let sync = Mutex(Sync())
  private let defaultSchemas: [String]
  /// Prefixes this store's sync tokens (`<id>:<n>`): other gateways on the same database hear
  /// them too and must not take them for their own.
  let syncID = UUID().uuidString.lowercased()

  init(defaultSchemas: [String]) {
    self.defaultSchemas = defaultSchemas
  }

  /// The cache and its version, loading it if there is none yet. Throws `PGError` or 503
  /// PGRST002.
  func current(database: PGPool) throws -> (cache: SchemaCache, version: Int) {
    try state.withLock { state in
      if let cache = state.cache { return (cache, state.version) }
      let cache = try SchemaIntrospection.load(database: database, defaultSchemas: defaultSchemas)
      state.cache = cache
      state.version += 1
      return (cache, state.version)
    }
  }

  /// Loads the cache again from the catalog and returns it.
  @discardableResult
  func reload(database: PGPool) throws -> SchemaCache {
    let cache = try SchemaIntrospection.load(database: database, defaultSchemas: defaultSchemas)
    state.withLock { state in
      state.cache = cache
      state.version += 1
    }
    return cache
  }

  /// Whether a listener is in place (set by the listener when its `LISTEN` succeeds, cleared
  /// when its connection breaks).
  func setListening(_ listening: Bool) {
    sync.withLock { state in
      state.listening = listening
      // Tokens sent to a broken connection will never come back: stop waiting for them.
      if !listening { state.tokenHandled = state.tokensSent }
    }
  }

  /// Records that the listener has handled these sync payloads (after any reload that the
  /// notifications before them asked for); other stores' tokens are ignored.
  func handledTokens(_ payloads: [String]) {
    let prefix = syncID + ":"
    let tokens = payloads.compactMap { payload -> Int? in
      guard payload.hasPrefix(prefix) else { return nil }
      return Int(payload.dropFirst(prefix.count))
    }
    guard let highest = tokens.max() else { return }
    sync.withLock { $0.tokenHandled = max($0.tokenHandled, highest) }
  }

  /// Makes sure every schema change committed before now is in the cache: sends a sync
  /// notification and waits (at most `timeout`) for the listener to handle it. Returns the
  /// cache when it was replaced since `version`, else nil (also without a listener).
  func catchUp(since version: Int, database: PGPool, timeout: Duration = .seconds(10))
    -> SchemaCache?
  {
    let token = sync.withLock { state -> Int? in
      guard state.listening else { return nil }
      state.tokensSent += 1
      return state.tokensSent
    }
    guard let token else { return nil }
    do {
      _ = try database.withConnection { connection in
        try connection.execute(
          PGStatement("SELECT pg_notify($1, $2)", [Self.syncChannel, "\(syncID):\(token)"]),
          knownCodeOnly: true)
      }
    } catch {
      return nil
    }
    let deadline = ContinuousClock.now.advanced(by: timeout)
    while ContinuousClock.now < deadline {
      // The listener reloads before it marks the token handled: the cache read after this
      // holds every reload the notifications before the token asked for.
      if sync.withLock({ $0.tokenHandled >= token }) {
        let (cache, current) = state.withLock { ($0.cache, $0.version) }
        return current > version ? cache : nil
      }
      Thread.sleep(forTimeInterval: 0.0005)
    }
    return nil
  }

  /// Forgets the cache; the next request loads it.
  func invalidate() {
    state.withLock { $0.cache = nil }
  }
}
