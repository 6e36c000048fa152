import Foundation
import SNMNetwork
import SNMQuery

extension StatementExecutor {
  /// Runs one statement that parsed and checked; it prints its own output and errors.
  /// `context` is what the runner knows: earlier answers for `expect`, the script's folder.
  /// `run file` is the script runner's (Script/ScriptRunner.swift).
  func run(_ statement: Statement, in source: Source, context: StatementContext = .init()) async
    -> StatementResult
  {
    switch statement.kind {
    case .shell(let command):
      return await runShellStatement(command, in: source, directory: context.directory)
    case .session(let session):
      guard let filled = await fillingVariables(in: session, source: source) else {
        return .failed(.usage)
      }
      return await runSession(filled)
    case .echo(let echo):
      return await runEcho(echo, in: source)
    case .query, .rpc:
      return await runRequest(statement, in: source, directory: context.directory)
    case .storage:
      return await runStorage(statement, in: source, directory: context.directory)
    case .let(let binding):
      return await runLet(binding, statement: statement, in: source, directory: context.directory)
    case .expect(let expect):
      return await runExpect(expect, in: source, context: context)
    case .auth:
      return await runAuth(statement, in: source)
    case .asService(let inner):
      return await runAsService(inner, in: source, context: context)
    case .run, .deferred:
      report("`run` and `defer` need a script runner")
      return .failed(.usage)
    }
  }

  /// Prints `text` as a line on standard output unless `--quiet`.
  func emit(_ text: String) {
    guard !currentSettings.quiet else { return }
    output.write(text.hasSuffix("\n") ? text : text + "\n")
    output.flush()
  }

  /// Prints a note at the prompt only (setting changes), on standard output (never into the
  /// file of `\o`).
  func note(_ text: String) {
    guard interactive else { return }
    tell(text)
  }

  /// Prints `text` as a line on standard output (never into the file of `\o`) unless `--quiet`:
  /// help, `\conninfo`, what `\e` runs.
  func tell(_ text: String) {
    guard !currentSettings.quiet else { return }
    baseOutput.write(text.hasSuffix("\n") ? text : text + "\n")
    baseOutput.flush()
  }

  /// Prints `diagnostic` (a variable that cannot be filled in, a bad pattern); the statement
  /// fails with exit code 2.
  func report(_ diagnostic: Diagnostic, in source: Source) -> StatementResult {
    let colour = Terminal.usesColour(fd: STDERR_FILENO, disabled: !currentSettings.colour)
    errors.write(DiagnosticRenderer(colored: colour).render(diagnostic, in: source))
    errors.flush()
    return .failed(.usage)
  }
}
