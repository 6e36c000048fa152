import Foundation
import SNMQuery
import SNMSupabase

extension StatementExecutor {
  /// Set while a statement runs under `as service`: its DB and Storage requests go with the
  /// service key and no session.
  @TaskLocal static var runningAsService = false

  /// `as service <statement>`: runs the query, `rpc` or Storage statement (with `run`, the
  /// runner's dispatcher) with the service key instead of the session (for set-up and clean-up
  /// under row-level security). Refused, with nothing sent, when the project has no service key.
  func runAsService(_ run: () async -> StatementResult) async -> StatementResult {
    guard serviceProvider != nil else { return noServiceKey() }
    state.withLock { $0.ranAsService = true }
    return await Self.$runningAsService.withValue(true) { await run() }
  }

  /// `let name = as service <statement>`.
  func runLetAsService(
    _ binding: LetStatement, inner: Statement, statement: Statement, in source: Source,
    directory: String?
  ) async -> StatementResult {
    guard serviceProvider != nil else { return noServiceKey() }
    state.withLock { $0.ranAsService = true }
    let unwrapped = LetStatement(name: binding.name, value: .statement(inner))
    let plain = Statement(kind: .let(unwrapped), range: statement.range)
    return await Self.$runningAsService.withValue(true) {
      await runLet(unwrapped, statement: plain, in: source, directory: directory)
    }
  }

  /// Whether a statement ran as service since the prompt last asked (and forget it): the next
  /// prompt says so.
  func takeRanAsService() -> Bool {
    state.withLock { state in
      defer { state.ranAsService = false }
      return state.ranAsService
    }
  }

  /// `as service` without a service key: nothing is sent (exit code 2).
  func noServiceKey() -> StatementResult {
    fail(.usage, StatementFailure.noServiceKey)
  }
}
