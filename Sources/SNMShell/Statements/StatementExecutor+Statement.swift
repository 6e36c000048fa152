import Foundation
import SNMNetwork
import SNMQuery

extension StatementExecutor {
  /// Prints `text`, which a script or a person typed (a statement `--echo` echoes, `\watch`'s
  /// heading), as a line of results unless `--quiet`: at a terminal as ``VisibleText/lines(_:)``
  /// shows it (a shared script's escape sequences never drive the terminal), to a file or a
  /// pipe as it is.
  func emit(_ text: String) {
    guard !currentSettings.quiet else { return }
    let output = statementOutput().results
    let line = text.hasSuffix("\n") ? text : text + "\n"
    output.write(output.isTerminal ? VisibleText.lines(line) : line)
    output.flush()
  }

  /// Prints a note at the prompt only, on standard output (never into the file of `\o`).
  func note(_ text: String) {
    guard interactive else { return }
    tell(text)
  }

  /// Prints `text` as a line on standard output (never into the file of `\o`) unless `--quiet`:
  /// what `\e` runs.
  func tell(_ text: String) {
    statementOutput().tell(text)
  }

  /// Prints `diagnostic` to `routing`'s errors; the statement fails with exit code 2, its
  /// message the diagnostic's first line.
  func report(_ diagnostic: Diagnostic, in source: Source, routing: StatementRouting)
    -> StatementResult
  {
    .failed(failure(diagnostic, in: source, routing: routing))
  }

  /// ``report(_:in:routing:)``'s failure: printed, and returned as a value.
  func failure(_ diagnostic: Diagnostic, in source: Source, routing: StatementRouting)
    -> StatementFailure
  {
    statementOutput(routing).failure(diagnostic, in: source, colour: currentSettings.colour)
  }
}
