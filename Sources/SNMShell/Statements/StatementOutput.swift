import Foundation
import SNMQuery

/// Where a statement prints, handed in: results (standard output, or the file of `\o`), the
/// terminal's standard output (help, notes: never into `\o`'s file), and errors (standard error,
/// or the script runner's hold for the statement). A family prints only through these.
///
/// ```swift
/// output.tell("timing is on")                       // unless --quiet
/// return .failed(output.failure(.usage, "cannot write results to 'x': ..."))
/// ```
struct StatementOutput: Sendable {
  /// Where results go.
  let results: OutputWriter
  /// Standard output as given: help, `\conninfo`, notes.
  let terminal: OutputWriter
  /// Where errors go.
  let errors: OutputWriter
  /// `--quiet`: nothing but failures prints.
  let quiet: Bool
  /// Notes that a CSV result goes to the writer now, and says whether the last CSV result went
  /// there too (an empty line then parts the two blocks). The session keeps where it went.
  var followsCSV: @Sendable (OutputWriter) -> Bool = { _ in false }

  /// Prints `text` as a line on the terminal's standard output unless `--quiet`, as
  /// ``VisibleText/lines(_:)`` shows it: a note may quote what a person or a shared script typed
  /// (a path, a channel's name, what `\e` runs), whose control characters are shown escaped.
  func tell(_ text: String) {
    guard !quiet else { return }
    terminal.write(VisibleText.lines(text.hasSuffix("\n") ? text : text + "\n"))
    terminal.flush()
  }

  /// Prints `message` as an error line, `snm: message`, its control characters escaped (it may
  /// quote a server).
  func report(_ message: String) {
    errors.write("snm: \(VisibleText.escaped(message, keepingNewlines: true))\n")
    errors.flush()
  }

  /// ``failure(_:_:outcome:headline:)`` as a statement's result.
  func fail(_ kind: StatementFailure.Kind, _ text: String) -> StatementResult {
    .failed(failure(kind, text))
  }

  /// Prints `diagnostic` (a variable that cannot be filled in, a bad pattern), in colour when
  /// `colour` allows and standard error is a terminal; the failure has exit code 2, its message
  /// the diagnostic's first line.
  func failure(_ diagnostic: Diagnostic, in source: Source, colour: Bool) -> StatementFailure {
    let colour = Terminal.usesColour(fd: STDERR_FILENO, disabled: !colour)
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
    report(text)
    return StatementFailure(
      kind, saying: VisibleText.escaped(text, keepingNewlines: true), outcome: outcome,
      headline: headline)
  }
}
