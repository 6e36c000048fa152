import Foundation
import SNMQuery

extension StatementExecutor {
  /// `let name = ...` (Script/ValueStatements): keeps what it binds and who it signed in.
  func runLet(
    _ binding: LetStatement, statement: Statement, in source: Source, context: StatementContext
  ) async -> StatementResult {
    if case .statement(let inner) = binding.value,
      let serviceInner = RequestExplainer.serviceStatement(inner)
    {
      return await runLetAsService(
        binding, inner: serviceInner, statement: statement, in: source, context: context)
    }
    let (environment, output) = await surroundings(context.routing)
    let family = ValueStatements(environment: environment, output: output)
    let outcome = await family.runLet(
      binding, statement: statement, in: source, directory: context.directory)
    keep(outcome.signedIn)
    if let (name, value) = outcome.binding { bind(name, to: value) }
    return outcome.result
  }

  /// `expect ...` (Script/ValueStatements).
  func runExpect(_ expect: ExpectStatement, in source: Source, context: StatementContext) async
    -> StatementResult
  {
    let (environment, output) = await surroundings(context.routing)
    let family = ValueStatements(environment: environment, output: output)
    return family.runExpect(expect, in: source, context: context)
  }

  /// `echo ...` (Script/ValueStatements).
  func runEcho(_ echo: EchoStatement, in source: Source, context: StatementContext) async
    -> StatementResult
  {
    let (environment, output) = await surroundings(context.routing)
    let family = ValueStatements(environment: environment, output: output)
    return family.runEcho(echo, in: source)
  }
}
