import Foundation

extension StatementFamily {
  /// Loads the schema when nothing has (the prompt's prepared load, else one of its own) and waits
  /// for the load (a signal stops the wait, as it stops a request); reports a project that cannot
  /// be reached (the statement fails with exit code 3). Nil when the statement goes on: a refusal is not a failure, the names seen in
  /// results stand in.
  func loadSchema() async -> StatementResult? {
    let catalog = environment.catalog
    let provider = environment.connection.provider
    let project = environment.project
    let storage = environment.storageManager
    // The prompt's prepared load when there is one (started once, whoever needs it first).
    catalog.loadIfNotStarted(else: {
      catalog.startLoading(
        provider: provider, project: project, storage: storage,
        cache: SchemaCache(directory: SchemaCache.defaultDirectory()))
    })
    let wait = await environment.sender.cancellable(refreshing: false) {
      await catalog.waitUntilLoaded()
    }
    if case .interrupted(let signal) = wait { return .interrupted(signal) }
    guard case .unreachable(let failure) = catalog.problem, catalog.schema == nil else {
      return nil
    }
    return .failed(requestFailure(failure))
  }
}
