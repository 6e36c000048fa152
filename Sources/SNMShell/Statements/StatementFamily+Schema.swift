import Foundation

extension StatementFamily {
  /// Loads the schema when nothing has and waits for the load (a signal stops the wait, as it
  /// stops a request); reports a project that cannot be reached (the statement fails with exit
  /// code 3). Nil when the statement goes on: a refusal is not a failure, the names seen in
  /// results stand in.
  func loadSchema() async -> StatementResult? {
    let catalog = environment.catalog
    if !catalog.hasStartedLoading {
      catalog.startLoading(
        provider: environment.connection.provider, project: environment.project,
        storage: environment.storageManager,
        cache: SchemaCache(directory: SchemaCache.defaultDirectory()))
    }
    let wait = await environment.sender.cancellable(refreshing: false) {
      await catalog.waitUntilLoaded()
    }
    if case .interrupted(let signal) = wait { return .interrupted(signal) }
    guard case .unreachable(let reason) = catalog.problem, catalog.schema == nil else {
      return nil
    }
    return fail(.unreachable, reason)
  }
}
