import Foundation
import SNMNetwork
import SNMQuery

extension StatementExecutor {
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
    statementOutput.tell(text)
  }

  /// Prints `diagnostic` (a variable that cannot be filled in, a bad pattern); the statement
  /// fails with exit code 2, its message the diagnostic's first line.
  func report(_ diagnostic: Diagnostic, in source: Source) -> StatementResult {
    .failed(failure(diagnostic, in: source))
  }

  /// ``report(_:in:)``'s failure: printed, and returned as a value.
  func failure(_ diagnostic: Diagnostic, in source: Source) -> StatementFailure {
    let colour = Terminal.usesColour(fd: STDERR_FILENO, disabled: !currentSettings.colour)
    errors.write(DiagnosticRenderer(colored: colour).render(diagnostic, in: source))
    errors.flush()
    let place = source.location(of: diagnostic.range.start)
    return StatementFailure(
      .usage,
      message: "\(source.fileName):\(place.line):\(place.column): "
        + "\(diagnostic.severity.rawValue): \(diagnostic.message.text)")
  }

  /// Prints `text` as ``report(_:)`` does and returns the failure of `kind` that says it.
  func failure(
    _ kind: StatementFailure.Kind, _ text: String, outcome: StatementOutcome? = nil,
    headline: String? = nil
  ) -> StatementFailure {
    statementOutput.failure(kind, text, outcome: outcome, headline: headline)
  }

  /// ``failure(_:_:outcome:headline:)`` as a statement's result.
  func fail(_ kind: StatementFailure.Kind, _ text: String) -> StatementResult {
    .failed(failure(kind, text))
  }
}
