import Foundation

/// Schema reloads on `NOTIFY pgrst, 'reload schema'` (or `'reload config'`), PostgREST's way to
/// tell a running gateway about DDL, migrations or `pgrst.*` role settings.
extension RESTGateway {
  /// Listens on channel `pgrst` from a connection of its own (same login as `database`), on a
  /// background thread, for the life of the process; reconnects after failures.
  public func listenForReloads(database: PGPool) {
    let conninfo = database.conninfo
    Thread.detachNewThread { [self] in
      while true {
        do {
          let connection = try PGConnection(conninfo: conninfo)
          try connection.listen("pgrst")
          while true {
            guard let notification = try connection.nextNotification(timeout: 30) else {
              continue
            }
            if Self.isReloadRequest(notification.payload) {
              try? reloadSchemaCache(database: database)
            }
          }
        } catch {
          Thread.sleep(forTimeInterval: 1)
        }
      }
    }
  }

  /// PostgREST reloads on an empty payload, `reload schema` and `reload config`.
  static func isReloadRequest(_ payload: String) -> Bool {
    let text = payload.trimmingCharacters(in: " \t\n")
    return text.isEmpty || text == "reload schema" || text == "reload config"
  }
}
