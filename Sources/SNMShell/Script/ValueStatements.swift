import Foundation
import SNMNetwork
import SNMQuery
import SNMWire

/// The statements about values: `let` (a value, or what a query, `rpc`, Storage or auth statement
/// answered), `echo` and `expect`. A value for one statement, as every family
/// (Statements/StatementFamily.swift): `let` returns what it binds for the session to keep.
///
/// ```swift
/// let outcome = await ValueStatements(environment: environment, output: output)
///   .runLet(binding, statement: statement, in: source, directory: nil)
/// outcome.binding   // ("dogs", [...]) when it succeeded
/// ```
struct ValueStatements: StatementFamily {
  /// What `let` gave and changed.
  struct Outcome: Sendable {
    var result: StatementResult
    /// The name and the value it binds; nil when it failed.
    var binding: (name: String, value: JSONValue)?
    /// Who is signed in after it (`let s = verify otp ...`); nil: unchanged.
    var signedIn: SignedInChange?

    init(
      _ result: StatementResult, binding: (name: String, value: JSONValue)? = nil,
      signedIn: SignedInChange? = nil
    ) {
      self.result = result
      self.binding = binding
      self.signedIn = signedIn
    }
  }

  let environment: StatementEnvironment
  let output: StatementOutput

  /// `let name = value` or `let name = <query, rpc, Storage or auth statement>` (which prints
  /// nothing). `let name = as service ...` is the executor's (it notes the service key's use).
  func runLet(
    _ binding: LetStatement, statement: Statement, in source: Source, directory: String?
  ) async -> Outcome {
    let name = binding.name.text
    switch binding.value {
    case .value(let node):
      do {
        let value = try ValueEvaluator.json(node, in: environment.variables)
        return Outcome(.succeeded(nil), binding: (name, value))
      } catch {
        return Outcome(report(error, in: source))
      }
    case .statement(let inner) where AuthCompiler.authStatement(inner) != nil:
      switch await AuthStatements(environment: environment, output: output)
        .perform(inner, in: source)
      {
      case .answered(let answer):
        return Outcome(
          .succeeded(.answered(value: answer.value, status: 200)), binding: (name, answer.value),
          signedIn: answer.signedIn)
      case .stopped(let result):
        return Outcome(result)
      }
    case .statement(let inner) where FunctionsCompiler.functionsStatement(inner) != nil:
      let family = FunctionsStatements(environment: environment, output: output)
      switch await family.perform(inner, in: source, directory: directory) {
      case .answered(let answer):
        if let file = FunctionsCompiler.functionsStatement(inner)?.outputFile,
          var failure = family.write(answer, to: file, directory: directory)
        {
          failure.outcome = answer.outcome
          return Outcome(.failed(failure))
        }
        return Outcome(.succeeded(answer.outcome), binding: (name, answer.value))
      case .stopped(let result):
        return Outcome(result)
      }
    case .statement(let inner) where StorageCompiler.storageStatement(inner) != nil:
      switch await StorageStatements(environment: environment, output: output)
        .perform(inner, in: source, directory: directory)
      {
      case .answered(let value, let response):
        return Outcome(
          .succeeded(.answered(value: value, status: response?.status)), binding: (name, value))
      case .stopped(let result):
        return Outcome(result)
      }
    case .statement(let inner):
      return await bindRequest(name, inner, statement: statement, in: source, directory: directory)
    }
  }

  /// `let name = <query or rpc>`: the answer's rows (every row with `all`), printed nowhere.
  func bindRequest(
    _ name: String, _ inner: Statement, statement: Statement, in source: Source,
    directory: String?
  ) async -> Outcome {
    let requests = RequestStatements(environment: environment, output: output)
    if let read = await PagedRead.run(
      inner, in: source, directory: directory, silent: true, by: requests)
    {
      // `let name = <select> all`: every row is bound, nothing printed.
      guard case .succeeded(let answered?) = read else { return Outcome(read) }
      return Outcome(read, binding: (name, answered.value))
    }
    let compiled: StatementCompiler.Compiled
    do {
      compiled = try await requests.compile(statement, in: source, directory: directory)
    } catch {
      return Outcome(.failed(error))
    }
    switch await environment.sender.send(compiled) {
    case .done(let response):
      if let failure = RequestStatements.refusedRollback(compiled.request, response) {
        return Outcome(.failed(self.failure(.server, failure, outcome: .failed(message: failure))))
      }
      let outcome = await RowCapCheck(requests: requests, statement: inner).outcome(of: response)
      return Outcome(.succeeded(outcome), binding: (name, response.value))
    case .failed(let error):
      return Outcome(.failed(requests.requestFailure(error)))
    case .interrupted(let signal):
      return Outcome(.interrupted(signal))
    }
  }

  /// `expect ...`: checks the last result; a failure says what was expected and what was found.
  func runExpect(_ expect: ExpectStatement, in source: Source, context: StatementContext)
    -> StatementResult
  {
    let check = ExpectationCheck(statement: expect, last: context.last, previous: context.previous)
    do {
      switch try check.evaluate(in: environment.variables) {
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
  func runEcho(_ echo: EchoStatement, in source: Source) -> StatementResult {
    do {
      // A variable may hold what a server sent: at a terminal its hidden characters are shown
      // as escapes (a JSON value's as JSON's own, `\u202e`: the same value); to a file or pipe
      // the text is written as it is.
      let (text, json) = try ValueEvaluator.echoed(echo.value, in: environment.variables)
      if !output.results.isTerminal {
        emit(text)
      } else {
        emit(json ? VisibleText.json(text) : VisibleText.escaped(text, keepingNewlines: true))
      }
      return .succeeded(nil)
    } catch {
      return report(error, in: source)
    }
  }
}
