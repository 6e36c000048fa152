import Foundation
import SNMNetwork
import SNMQuery
import SNMWire

extension StatementExecutor {
  /// `let name = value` or `let name = <query or rpc>` (which prints nothing).
  func runLet(
    _ binding: LetStatement, statement: Statement, in source: Source, directory: String?
  ) async -> StatementResult {
    let value: JSONValue
    let outcome: StatementOutcome?
    switch binding.value {
    case .value(let node):
      do {
        value = try ValueEvaluator.json(node, in: await variableScope())
        outcome = nil
      } catch {
        return report(error, in: source)
      }
    case .statement(let inner) where AuthCompiler.authStatement(inner) != nil:
      let family = AuthStatements(
        environment: await statementEnvironment(), output: statementOutput)
      switch await family.perform(inner, in: source) {
      case .answered(let answer):
        keep(answer.signedIn)
        value = answer.value
        outcome = .answered(value: answer.value, status: 200)
      case .stopped(let result):
        return result
      }
    case .statement(let inner) where RequestExplainer.serviceStatement(inner) != nil:
      let serviceInner = RequestExplainer.serviceStatement(inner) ?? inner
      return await runLetAsService(
        binding, inner: serviceInner, statement: statement, in: source, directory: directory)
    case .statement(let inner) where StorageCompiler.storageStatement(inner) != nil:
      let family = StorageStatements(
        environment: await statementEnvironment(), output: statementOutput)
      switch await family.perform(inner, in: source, directory: directory) {
      case .answered(let result, let response):
        value = result
        outcome = .answered(value: result, status: response?.status)
      case .stopped(let result):
        return result
      }
    case .statement(let inner):
      let requests = RequestStatements(
        environment: await statementEnvironment(), output: statementOutput)
      if let read = await PagedRead.run(
        inner, in: source, directory: directory, silent: true, by: requests)
      {
        // `let name = <select> all`: every row is bound, nothing printed.
        if case .succeeded(let answered?) = read { bind(binding.name.text, to: answered.value) }
        return read
      }
      let compiled: StatementCompiler.Compiled
      do {
        compiled = try await requests.compile(statement, in: source, directory: directory)
      } catch {
        return .failed(error)
      }
      switch await requests.environment.sender.send(compiled) {
      case .done(let response):
        if let failure = RequestStatements.refusedRollback(compiled.request, response) {
          return .failed(self.failure(.server, failure, outcome: .failed(message: failure)))
        }
        value = response.value
        outcome = await RowCapCheck(requests: requests, statement: inner).outcome(of: response)
      case .failed(let error):
        return .failed(requests.requestFailure(error))
      case .interrupted(let signal):
        return .interrupted(signal)
      }
    }
    bind(binding.name.text, to: value)
    return .succeeded(outcome)
  }

  /// `expect ...`: checks the last result; a failure says what was expected and what was found.
  func runExpect(_ expect: ExpectStatement, in source: Source, context: StatementContext) async
    -> StatementResult
  {
    let check = ExpectationCheck(statement: expect, last: context.last, previous: context.previous)
    do {
      switch try check.evaluate(in: await variableScope()) {
      case .held:
        return .succeeded(nil)
      case .failed(let expected, let found):
        return .failed(.expectation(expected: expected, found: found))
      }
    } catch {
      return report(error, in: source)
    }
  }

  /// `echo value`: prints a string with its variables filled in, or a value as JSON.
  func runEcho(_ echo: EchoStatement, in source: Source) async -> StatementResult {
    do {
      // A variable may hold what a server sent: at a terminal its control characters are shown
      // as escapes; to a file or pipe the text is written as it is.
      let text = try ValueEvaluator.text(echo.value, in: await variableScope())
      emit(output.isTerminal ? VisibleText.escaped(text, keepingNewlines: true) : text)
      return .succeeded(nil)
    } catch {
      return report(error, in: source)
    }
  }
}
