import Foundation
import SNMQuery
import SNMSupabase

extension StatementExecutor {
  /// `as service <statement>`: runs the query, `rpc` or Storage statement (with `run`, the
  /// runner's dispatcher, given `routing` with `asService` set) with the service key instead of
  /// the session (for set-up and clean-up under row-level security). Refused, with nothing sent,
  /// when the project has no service key.
  func runAsService(
    routing: StatementRouting, _ run: (StatementRouting) async -> StatementResult
  ) async -> StatementResult {
    guard serviceProvider != nil else { return noServiceKey(routing) }
    state.withLock { $0.ranAsService = true }
    var service = routing
    service.asService = true
    return await run(service)
  }

  /// `let name = as service <statement>`.
  func runLetAsService(
    _ binding: LetStatement, inner: Statement, statement: Statement, in source: Source,
    context: StatementContext
  ) async -> StatementResult {
    guard serviceProvider != nil else { return noServiceKey(context.routing) }
    state.withLock { $0.ranAsService = true }
    var unwrapped = binding
    unwrapped.value = .statement(inner)
    var plain = statement
    plain.kind = .let(unwrapped)
    var service = context
    service.routing.asService = true
    return await runLet(unwrapped, statement: plain, in: source, context: service)
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
  func noServiceKey(_ routing: StatementRouting) -> StatementResult {
    statementOutput(routing).fail(.usage, StatementFailure.noServiceKey)
  }
}
