import Foundation
import SNMNetwork
import SNMQuery

extension Shell {
  /// Parses, checks and runs every statement in `text`; returns whether all of them succeeded.
  ///
  /// A parse or check error (in `text` or in a file it `run`s) runs nothing and prints every
  /// diagnostic (exit code 2). At the prompt every statement runs; elsewhere the first failure
  /// stops the rest unless `on_error` is `continue` (Script/Shell+ScriptLoop.swift).
  /// `complete` is false for standard input's chunks: a failure at the end of one waits to see
  /// whether the next begins with `expect error`. `firstLine` is the line `text` starts on in
  /// its input, so locations name the real line.
  func execute(_ text: String, source name: String, complete: Bool = true, firstLine: Int = 1)
    async -> Bool
  {
    let parsed = Parser.parse(Source(text: text, fileName: name, firstLine: firstLine))
    let loader = script.withLock { $0.loader }
    let check = ScriptCheck.check(
      parsed, file: nil, variables: Set(variableNames()), loader: loader)
    if check.hasErrors {
      _ = finishScript()
      reportCheckErrors(check)
      return false
    }
    let end = await runStatements(
      check.script.statements, in: check.script.source, complete: complete)
    return end == .succeeded
  }

  /// Runs one statement that parsed and checked; it prints its own output and errors.
  func run(_ statement: Statement, in source: Source) async -> StatementResult {
    switch statement.kind {
    case .shell(let command):
      return await runShellStatement(command, in: source)
    case .session(let session):
      guard let filled = await fillingVariables(in: session, source: source) else {
        return .failed(.usage)
      }
      return await runSession(filled)
    case .echo(let echo):
      return await runEcho(echo, in: source)
    case .query, .rpc:
      return await runRequest(statement, in: source)
    case .storage:
      return await runStorage(statement, in: source)
    case .let(let binding):
      return await runLet(binding, statement: statement, in: source)
    case .expect(let expect):
      return await runExpect(expect, in: source)
    case .run(let include):
      return await runInclude(include, in: source)
    }
  }

  /// Prints `text` as a line on standard output unless `--quiet`.
  func emit(_ text: String) {
    guard !currentSettings.quiet else { return }
    output.write(text.hasSuffix("\n") ? text : text + "\n")
    output.flush()
  }

  /// Prints a note at the prompt only (setting changes), on standard output.
  func note(_ text: String) {
    guard state.withLock({ $0.interactive }) else { return }
    emit(text)
  }
}
