import Foundation
import SNMQuery

extension ScriptRunner {
  /// Runs the `defer` statements noted since `mark`, last first, whatever ended the file (a
  /// failure, `exit`, Ctrl-C, SIGTERM): each is reported as any statement is, after the file's
  /// own failure, so it never hides it (the first failure keeps deciding the exit code). A
  /// signal during them stops the rest. Returns whether one failed.
  @discardableResult
  mutating func runDeferred(from mark: Int) async -> Bool {
    guard state.deferred.count > mark else { return false }
    let pending = Array(state.deferred[mark...].reversed())
    state.deferred.removeSubrange(mark...)
    settle(before: nil)
    // A signal that stopped the file does not stop its clean-up; another one does.
    let stopped = executor.clearInterruption()
    let exitRequested = state.exitRequested
    state.exitRequested = false
    var failed = false
    for frame in pending {
      if executor.interruption != nil { break }
      if executor.currentSettings.echo {
        executor.emit("defer " + StatementText.display(frame.statement, in: frame.source))
      }
      switch await runTracked(frame.statement, in: frame.source) {
      case .succeeded: break
      case .failed: failed = true
      case .pending: failed = !settle(before: nil) || failed
      case .interrupted: failed = true
      }
    }
    state.exitRequested = state.exitRequested || exitRequested
    if let stopped { executor.interrupt(stopped) }
    return failed
  }
}
