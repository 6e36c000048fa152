import Foundation
import SNMQuery

extension ScriptRunner {
  /// The one switch on a statement's kind: each kind goes to the family that runs it, the
  /// script's own statements (`run`, `defer`, `expect ... within`, `\e`, `\watch`) to this
  /// runner, the rest to the executor's families. Counts nothing and remembers nothing (that is
  /// ``run(_:in:routing:)``'s); `expect ... within` sends its request again through here.
  /// `routing` says where the statement's output goes and whether it runs `as service`.
  mutating func dispatch(
    _ statement: Statement, in source: Source, routing: StatementRouting = StatementRouting()
  ) async -> StatementResult {
    let context = StatementContext(
      last: state.last, previous: state.previous, directory: directory(of: source),
      routing: routing)
    switch statement.kind {
    case .shell(.edit):
      return await runEdit(in: source, routing: routing)
    case .shell(.watch(let seconds, let count)):
      return await runWatch(seconds: seconds, count: count, routing: routing)
    case .shell(let command):
      return await executor.runShellStatement(command, in: source, context: context)
    case .session(let session):
      return await executor.runSession(session, in: source, context: context)
    case .echo(let echo):
      return await executor.runEcho(echo, in: source, context: context)
    case .query, .rpc:
      return await executor.runRequest(
        RequestStatements.self, statement, in: source, context: context)
    case .storage:
      return await executor.runRequest(
        StorageStatements.self, statement, in: source, context: context)
    case .functions:
      return await executor.runRequest(
        FunctionsStatements.self, statement, in: source, context: context)
    case .let(let binding):
      return await executor.runLet(binding, statement: statement, in: source, context: context)
    case .expect(.within(let inner, let timeout, let interval)):
      return await runWithin(
        inner, timeout: timeout, interval: interval, statement: statement, in: source,
        routing: routing)
    case .expect(let expect):
      return await executor.runExpect(expect, in: source, context: context)
    case .auth:
      return await executor.runAuth(statement, in: source, context: context)
    case .asService(let inner):
      return await executor.runAsService(routing: routing) { service in
        await dispatch(inner, in: source, routing: service)
      }
    case .realtime(let realtime):
      return await executor.runRealtime(realtime, context: context)
    case .run(let include):
      return await runInclude(include, in: source, routing: routing)
    case .deferred(let deferred):
      state.deferred.append(ScriptState.Frame(source: source, statement: deferred.statement))
      return .succeeded(nil)
    }
  }
}
