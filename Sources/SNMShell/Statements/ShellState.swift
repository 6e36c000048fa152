import Foundation
import SNMWire

/// What a shell session changes as it goes, in one place: the settings, where `\o` sends results,
/// the writer the last CSV block went to, who is signed in, whether a statement ran `as service`
/// since the prompt last asked, whether a person is at the prompt, and the variables. The
/// executor keeps it in one `Mutex<ShellState>`; a statement family reads a snapshot
/// (``StatementEnvironment``) and returns what it changed.
///
/// ```swift
/// executor.state.withLock { $0.settings.timing = true }
/// ```
struct ShellState: Sendable {
  /// What `set` changes, starting from the command line's options.
  var settings: ShellSettings
  /// The file `\o FILE` sends results to (nil: standard output).
  var resultsFile: ResultsFile?
  /// The writer the last CSV result went to: the next one there starts after an empty line.
  var lastCSVOutput: ObjectIdentifier?
  /// Who the prompt says is signed in (nil: the key's role), kept current after each statement.
  var signedIn: String?
  /// Whether a statement ran `as service` since the prompt last showed (it then says so).
  var ranAsService = false
  /// Whether statements come from a person at the prompt (a spinner, the pager, setting notes).
  var interactive = false
  /// Values bound by `--var` (and, in scripts, `let`).
  var variables: [String: JSONValue]
  /// Their names, for the checker: kept rather than made from `variables` for each statement
  /// (standard input is checked a statement at a time).
  var variableNames: Set<String>
}
