import Foundation
import SNMQuery

extension ScriptRunner {
  /// Runs a statement at the prompt: errors print as they come; a failed `expect` says why;
  /// Ctrl-C cancels the statement and the prompt comes back, SIGTERM ends the session. A signal
  /// that stopped its output (while it printed rows) counts as one that stopped it, unless
  /// Ctrl-C came when nothing was left to print.
  mutating func runAtPrompt(_ statement: Statement, in source: Source) async -> Bool {
    state.current = nil
    if executor.currentSettings.echo {
      executor.emit(StatementText.display(statement, in: source))
    }
    var result = await run(statement, in: source)
    if let stop = executor.resumeOutputs(), result.signal == nil,
      stop.signal != SIGINT || stop.cut
    {
      result = .interrupted(stop.signal)
    }
    state.remember(result, failedWith: "the statement failed")
    switch result {
    case .succeeded:
      return true
    case .failed(let failure):
      if case .expectation(let expected, let found) = failure.kind {
        // What was found may be a server's data: shown with control characters escaped.
        executor.baseErrors.write(
          "expectation failed\n  expected: \(VisibleText.escaped(expected))\n"
            + "  found:    \(VisibleText.escaped(found))\n")
        executor.baseErrors.flush()
      }
      return false
    case .interrupted(let signal) where signal == SIGTERM:
      executor.report("interrupted: \(StatementText.display(statement, in: source))")
      state.failure = .terminated
      state.exitRequested = true
      return false
    case .interrupted:
      // At a terminal the line holds the echoed ^C (or the spinner): start it afresh.
      if Terminal.isTerminal(STDERR_FILENO) { executor.baseErrors.write("\r\u{1B}[K") }
      executor.report("cancelled")
      return false
    }
  }
}
