import Foundation
import SNMQuery

/// The psql habits: `set format|timing|pager|on_error|expanded|null|timezone` (`\x`, `\timing`,
/// `\pset`), `\conninfo`, `\o` and `\?`. A value: it reads the environment it is handed, prints to
/// the output it is handed, and returns what changed (the settings, where results go), which the
/// executor keeps.
///
/// ```swift
/// let outcome = await PsqlCommand(.setTiming(nil)).run(in: environment, output: output)
/// outcome.settings?.timing   // the toggled value
/// ```
struct PsqlCommand: Sendable {
  /// What running it gave and changed.
  struct Outcome: Sendable {
    var result: StatementResult
    /// The settings from now on; nil when unchanged.
    var settings: ShellSettings?
    /// Where results go from now on; nil when unchanged.
    var results: ResultsTarget?
  }

  /// Where `\o` sends results.
  enum ResultsTarget: Sendable {
    case standardOutput
    case file(ResultsFile)
  }

  let command: ShellStatement

  /// `command`, a setting, `\conninfo`, `\o` or `\?` (any other shell statement does nothing).
  init(_ command: ShellStatement) {
    self.command = command
  }

  func run(in environment: StatementEnvironment, output: StatementOutput) async -> Outcome {
    var settings = environment.settings
    let said: String
    switch command {
    case .connectionInfo:
      output.tell(VisibleText.escaped(await Self.connectionInfo(of: environment)))
      return Outcome(result: .succeeded(nil))
    case .output(let file):
      return redirect(to: file, in: environment, output: output)
    case .backslashHelp:
      output.tell(LanguageHelp.backslashCommands)
      return Outcome(result: .succeeded(nil))
    case .setFormat(let format):
      settings.format = OutputFormat(rawValue: format.rawValue) ?? .table
      said = "format is \(settings.format.rawValue)"
    case .setTiming(let on):
      settings.timing = on ?? !settings.timing
      said = "timing is \(settings.timing ? "on" : "off")"
    case .setPager(let on):
      settings.pager = on
      said = "pager is \(on ? "on" : "off")"
    case .setOnError(let choice):
      settings.onError = choice == .stop ? .stop : .continue
      said = "on_error is \(choice.rawValue)"
    case .setExpanded(let mode):
      settings.format = mode == .on ? .expanded : .table
      settings.autoExpand = mode == .auto
      said = Self.expandedNote(mode.rawValue)
    case .toggleExpanded:
      settings.format = settings.format == .expanded ? .table : .expanded
      if settings.format == .table { settings.autoExpand = false }
      said = Self.expandedNote(settings.expanded)
    case .setNull(let text):
      settings.nullText = text
      said = "null display is \"\(VisibleText.escaped(text))\""
    case .setTimezone(let zone):
      settings.timezone = zone
      said = zone.map { "timezone is \(VisibleText.escaped($0))" } ?? "timezone is off"
    default:
      return Outcome(result: .succeeded(nil))
    }
    if environment.interactive { output.tell(said) }
    return Outcome(result: .succeeded(nil), settings: settings)
  }

  /// `\o FILE`: results go to FILE (its `${...}` parts filled in), created (0600) or emptied;
  /// `\o`: back to standard output. Notes, help and errors stay on the terminal. A file that
  /// cannot be opened leaves the output where it was.
  func redirect(to file: OutputFile?, in environment: StatementEnvironment, output: StatementOutput)
    -> Outcome
  {
    guard let file else {
      if let previous = environment.resultsPath, environment.interactive {
        output.tell("results go to standard output again (were going to \(previous))")
      }
      return Outcome(result: .succeeded(nil), results: .standardOutput)
    }
    let path: String
    let opened: ResultsFile
    do {
      path = try ValueEvaluator.text(file.literal, in: environment.variables)
    } catch {
      return Outcome(result: .failed(output.failure(.usage, error.message.text)))
    }
    do {
      opened = try ResultsFile(path: path)
    } catch {
      let failure = output.failure(
        .usage, "cannot write results to '\(VisibleText.escaped(path))': \(error.reason)")
      return Outcome(result: .failed(failure))
    }
    if environment.interactive {
      output.tell(
        "results go to \(VisibleText.escaped(path)) (\\o alone sends them back to standard output)"
      )
    }
    return Outcome(result: .succeeded(nil), results: .file(opened))
  }

  /// `expanded display is on`, as psql says it; `auto` says when.
  static func expandedNote(_ mode: String) -> String {
    mode == "auto"
      ? "expanded display is auto (a table too wide for the terminal prints expanded)"
      : "expanded display is \(mode)"
  }
}
