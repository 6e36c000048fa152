import Foundation
import SNMNetwork
import SNMQuery

extension Shell {
  /// Parses, checks and runs every statement in `text`; returns whether all of them succeeded.
  ///
  /// A parse or check error runs nothing and prints every diagnostic (exit code 2). At the prompt
  /// every statement runs; elsewhere the first failure stops the rest unless `on_error` is
  /// `continue`.
  func execute(_ text: String, source name: String) async -> Bool {
    var script = Parser.parse(Source(text: text, fileName: name))
    Checker.check(&script, variables: Set(variableNames()))
    if script.hasErrors {
      let colour = Terminal.usesColour(fd: STDERR_FILENO, disabled: !currentSettings.colour)
      errors.write(
        DiagnosticRenderer(colored: colour).render(script.diagnostics, in: script.source))
      errors.flush()
      fail(.usage)
      return false
    }
    var succeeded = true
    for statement in script.statements {
      if currentSettings.echo { emit(script.source.text(of: statement.range)) }
      let ok = await run(statement, in: script.source)
      succeeded = succeeded && ok
      let (exiting, interactive) = state.withLock { ($0.exitRequested, $0.interactive) }
      if exiting { break }
      if !ok && !interactive && currentSettings.onError == .stop { break }
    }
    return succeeded
  }

  /// Runs one statement that parsed and checked.
  func run(_ statement: Statement, in source: Source) async -> Bool {
    switch statement.kind {
    case .shell(let command):
      return await runShellStatement(command, in: source)
    case .session(let session):
      return await runSession(session)
    case .echo(let echo):
      guard let text = constantText(echo.value) else {
        return notYet("echo with variables needs the script runner")
      }
      emit(text)
      return true
    case .query, .rpc:
      return await runRequest(statement, in: source)
    case .let, .expect, .run:
      return notYet("'let', 'expect' and 'run' need the script runner")
    }
  }

  /// A value's text when it needs no script variables: a string, a number, a word or `$env.NAME`.
  func constantText(_ node: ValueNode) -> String? {
    switch node.value {
    case .string(let literal): return literal.constantText
    case .number(let text), .uuid(let text), .date(let text), .timestamp(let text),
      .word(let text):
      return text
    case .bool(let flag): return flag ? "true" : "false"
    case .null: return "null"
    case .variable(let reference):
      if reference.name == "env", reference.path.count == 1,
        case .field(let name) = reference.path[0]
      {
        return ProcessInfo.processInfo.environment[name]
      }
      return variables.withLock { $0[reference.name] }.flatMap { value in
        reference.path.isEmpty ? (value.stringValue ?? value.serialized()) : nil
      }
    default: return nil
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

  private func notYet(_ what: String) -> Bool {
    report("\(what), which is not built yet")
    fail(.usage)
    return false
  }
}
