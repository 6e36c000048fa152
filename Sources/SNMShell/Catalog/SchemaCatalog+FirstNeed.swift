import Dispatch

extension SchemaCatalog {
  /// Keeps `start` (a call of ``startLoading(provider:project:cache:accessToken:)``) for the first
  /// need instead of loading now: the prompt shows without reading the cached document or asking
  /// the project for its own (about 3M instructions before the prompt, when loaded at start-up).
  /// Nothing is kept once a load has started.
  public func prepareLoading(_ start: @escaping @Sendable () -> Void) {
    state.withLock { state in
      if !state.started { state.prepared = start }
    }
  }

  /// Starts the prepared load, else `fallback`, unless a load has started: of everyone who asks,
  /// the first starts it and the others find it started, so the document is fetched once.
  public func loadIfNotStarted(else fallback: (@Sendable () -> Void)? = nil) {
    let start: (@Sendable () -> Void)? = state.withLock { state in
      guard !state.started, let start = state.prepared ?? fallback else { return nil }
      state.started = true
      state.prepared = nil
      return start
    }
    start?()
  }

  /// Whether a load is under way and no document (cached or served) is there yet: the names
  /// known now are only those seen in results, fewer than the project has.
  public var isAwaitingDocument: Bool {
    state.withLock { $0.started && !$0.settled && $0.schema == nil }
  }

  /// Blocks the calling thread (the editor's, never one of the cooperative pool's) until the load
  /// under way ends, or until `stop` (asked every 20 ms) says to stop waiting. Whether it ended.
  public func waitUntilSettled(unless stop: () -> Bool) -> Bool {
    guard let task = state.withLock({ $0.settled ? nil : $0.loading }) else { return true }
    let ended = DispatchSemaphore(value: 0)
    let watcher = Task.detached {
      await task.value
      ended.signal()
    }
    while ended.wait(timeout: .now() + .milliseconds(20)) == .timedOut {
      if stop() {
        watcher.cancel()
        return false
      }
    }
    return true
  }
}
