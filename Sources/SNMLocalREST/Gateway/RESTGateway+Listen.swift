import Dispatch
import Foundation
import SNMGateway

/// Schema reloads on `NOTIFY pgrst, 'reload schema'` (or `'reload config'`), PostgREST's way to
/// tell a running gateway about DDL, migrations or `pgrst.*` role settings; the local project's
/// DDL event triggers (`pgrst_ddl_watch`, `pgrst_drop_watch`, as Supabase installs them) send it
/// for every schema change.
extension RESTGateway {
  /// Listens on channel `pgrst` (and the store's sync channel, and `castsChannel`) from a
  /// connection of its own (same login as `database`), on a background thread, for the life of
  /// the process; reconnects after failures, and reloads then, since notifications sent
  /// meanwhile were lost.
  /// Returns once the first `LISTEN` is in place (or after `ready` when the database does not
  /// answer), so DDL committed after it is always heard.
  ///
  /// Notifications already waiting when one arrives are handled with it: one reload for all.
  public func listenForReloads(database: PGPool, ready: Duration = .seconds(5)) {
    let conninfo = database.conninfo
    let listening = DispatchSemaphore(value: 0)
    Thread.detachNewThread { [self] in
      var first = true
      while true {
        do {
          let connection = try PGConnection(conninfo: conninfo)
          try connection.listen("pgrst")
          try connection.listen(SchemaCacheStore.syncChannel)
          try connection.listen(Self.castsChannel)
          store.setListening(true)
          if first {
            first = false
            listening.signal()
          } else {
            try? reloadSchemaCache(database: database)
          }
          while true {
            guard let notification = try connection.nextNotification(timeout: 30) else {
              continue
            }
            var batch = [notification]
            while let more = try connection.nextNotification(timeout: 0) { batch.append(more) }
            handle(batch, database: database)
          }
        } catch {
          store.setListening(false)
          Thread.sleep(forTimeInterval: 1)
        }
      }
    }
    let seconds = Double(ready.components.seconds)
    _ = listening.wait(timeout: .now() + seconds)
  }

  /// The channel the local project's `snm_casts_watch` event trigger notifies when a cast is
  /// made: no reload (hosted PostgREST has none), but `json_agg` may now write a type's values
  /// through a function, so the encoders learnt for reads' rows (`ColumnReadCache`,
  /// `RequestShapeCache`) are forgotten and learnt again.
  static let castsChannel = "snm_casts"

  /// One reload for every reload request in `batch` (else the rows' encoders forgotten for a new
  /// cast), then the sync tokens marked handled.
  private func handle(_ batch: [PGConnection.Notification], database: PGPool) {
    if batch.contains(where: { $0.channel == "pgrst" && Self.isReloadRequest($0.payload) }) {
      try? reloadSchemaCache(database: database)
    } else if batch.contains(where: { $0.channel == Self.castsChannel }) {
      columnReads.removeAll()
      shapes.removeAll()
    }
    store.handledTokens(
      batch.filter { $0.channel == SchemaCacheStore.syncChannel }.map(\.payload))
  }

  /// PostgREST reloads on an empty payload, `reload schema` and `reload config`.
  static func isReloadRequest(_ payload: String) -> Bool {
    let text = payload.trimmingCharacters(in: " \t\n")
    return text.isEmpty || text == "reload schema" || text == "reload config"
  }
}
