import Foundation
import SNMNetwork
import SNMQuery
import SNMSupabase

/// A family of statements (requests, auth, storage, session, ...): a value made for one statement
/// from the environment it reads and the output it prints to, whose `run` returns a
/// ``StatementResult``. What every family prints with (lines, notes, failures, rows) is here.
///
/// ```swift
/// struct StorageStatement: StatementFamily {
///   let environment: StatementEnvironment
///   let output: StatementOutput
///   func run(_ statement: Statement, in source: Source, directory: String?) async -> StatementResult
/// }
/// ```
protocol StatementFamily: Sendable {
  /// What the statement reads: project, settings, variables, session, catalog, sender.
  var environment: StatementEnvironment { get }
  /// Where it prints.
  var output: StatementOutput { get }
}

/// A family whose statement is one request compiled from its source (queries and `rpc`,
/// Storage, Functions): made from the surroundings, run with the folder of the statement's file.
protocol RequestFamily: StatementFamily {
  init(environment: StatementEnvironment, output: StatementOutput)
  func run(_ statement: Statement, in source: Source, directory: String?) async -> StatementResult
}

extension StatementFamily {
  /// The settings as they were when the statement started.
  var settings: ShellSettings { environment.settings }

  /// Prints `text` as a line of results unless `--quiet`.
  func emit(_ text: String) {
    guard !settings.quiet else { return }
    output.results.write(text.hasSuffix("\n") ? text : text + "\n")
    output.results.flush()
  }

  /// Writes `text` as it is (CSV from the server), ending with a newline.
  func emitRaw(_ text: String) {
    guard !settings.quiet else { return }
    output.results.write(text.hasSuffix("\n") || text.isEmpty ? text : text + "\n")
    output.results.flush()
  }

  /// Prints a line of results unless `--quiet`; what the server said in it (a user's e-mail, a
  /// message) has its control characters escaped (``VisibleText``).
  func say(_ text: String) {
    guard !settings.quiet else { return }
    let text = VisibleText.escaped(text, keepingNewlines: true)
    output.results.write(text.hasSuffix("\n") ? text : text + "\n")
    output.results.flush()
  }

  /// Prints JSON made of what a server sent (`session show` as json) as a line of results unless
  /// `--quiet`: at a terminal its hidden characters as JSON's escapes (``VisibleText/json(_:)``),
  /// to a pipe or a file as it is.
  func emitJSON(_ text: String) {
    emit(output.results.isTerminal ? VisibleText.json(text) : text)
  }

  /// Prints a note at the prompt only, on standard output (never into the file of `\o`).
  func note(_ text: String) {
    guard environment.interactive else { return }
    output.tell(text)
  }

  /// Prints `message` as an error line: `snm: message`.
  func report(_ message: String) {
    output.report(message)
  }

  /// Prints `text` as ``report(_:)`` does and returns the failure of `kind` that says it.
  func failure(
    _ kind: StatementFailure.Kind, _ text: String, outcome: StatementOutcome? = nil,
    headline: String? = nil
  ) -> StatementFailure {
    output.failure(kind, text, outcome: outcome, headline: headline)
  }

  /// ``failure(_:_:outcome:headline:)`` as a statement's result.
  func fail(_ kind: StatementFailure.Kind, _ text: String) -> StatementResult {
    output.fail(kind, text)
  }

  /// Prints `diagnostic` (a variable that cannot be filled in, a bad pattern); the failure has
  /// exit code 2, its message the diagnostic's first line.
  func failure(_ diagnostic: Diagnostic, in source: Source) -> StatementFailure {
    output.failure(diagnostic, in: source, colour: settings.colour)
  }

  /// ``failure(_:in:)`` as a statement's result.
  func report(_ diagnostic: Diagnostic, in source: Source) -> StatementResult {
    .failed(failure(diagnostic, in: source))
  }

  /// A statement that needs the service key (`admin ...`, `inbox`, `as service`) without one:
  /// nothing is sent (exit code 2).
  func noServiceKey() -> StatementResult {
    fail(.usage, StatementFailure.noServiceKey)
  }

  /// An error's text as snm prints it.
  static func describe(_ error: any Error) -> String {
    switch error {
    case let failure as SupabaseAuthError: failure.description
    case let failure as SNMNetworkError: failure.description
    case let failure as AuthResponseError: failure.description
    case let failure as SupabaseSessionError: failure.description
    default: "\(error)"
    }
  }
}
