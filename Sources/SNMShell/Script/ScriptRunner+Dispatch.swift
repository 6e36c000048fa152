import Foundation
import SNMQuery

extension ScriptRunner {
  /// The one switch on a statement's kind: each kind goes to the family that runs it, the
  /// script's own statements (`run`, `defer`, `expect ... within`, `\e`, `\watch`) to this
  /// runner, the rest to the executor's families. Counts nothing and remembers nothing (that is
  /// ``run(_:in:)``'s); `expect ... within` sends its request again through here.
  mutating func dispatch(_ statement: Statement, in source: Source) async -> StatementResult {
    let context = StatementContext(
      last: state.last, previous: state.previous, directory: directory(of: source))
    switch statement.kind {
    case .shell(.edit):
      return await runEdit(in: source)
    case .shell(.watch(let seconds, let count)):
      return await runWatch(seconds: seconds, count: count)
    case .shell(let command):
      return await executor.runShellStatement(command, in: source, directory: context.directory)
    case .session(let session):
      return await executor.runSession(session, in: source)
    case .echo(let echo):
      return await executor.runEcho(echo, in: source)
    case .query, .rpc:
      return await executor.runRequest(statement, in: source, directory: context.directory)
    case .storage:
      return await executor.runStorage(statement, in: source, directory: context.directory)
    case .let(let binding):
      return await executor.runLet(
        binding, statement: statement, in: source, directory: context.directory)
    case .expect(.within(let inner, let timeout, let interval)):
      return await runWithin(
        inner, timeout: timeout, interval: interval, statement: statement, in: source)
    case .expect(let expect):
      return await executor.runExpect(expect, in: source, context: context)
    case .auth:
      return await executor.runAuth(statement, in: source)
    case .asService(let inner):
      return await executor.runAsService { await dispatch(inner, in: source) }
    case .run(let include):
      return await runInclude(include, in: source)
    case .deferred(let deferred):
      state.deferred.append(ScriptState.Frame(source: source, statement: deferred.statement))
      return .succeeded(nil)
    }
  }
}
