import SNMQuery

/// The script runner's messages (`run` files), in the catalog style of SNMQuery's diagnostics.
extension DiagnosticMessage {
  /// `run` names a file that cannot be read.
  static func runTarget(_ problem: ScriptLoadError) -> DiagnosticMessage {
    DiagnosticMessage(id: "run-unreadable", "cannot run: \(problem.description)")
  }

  /// `snm check`: `run` names a file not there yet that a statement before it writes.
  static func runTargetWrittenFirst(_ path: String) -> DiagnosticMessage {
    DiagnosticMessage(
      id: "run-checked-later",
      "'\(VisibleText.escaped(path))' is not there yet: it is checked when it runs")
  }

  /// `run` names a file that is already running: `a.snm -> b.snm -> a.snm`.
  static func runCycle(_ chain: [String]) -> DiagnosticMessage {
    DiagnosticMessage(
      id: "run-cycle", "'run' would loop forever: " + chain.joined(separator: " -> "))
  }
}

/// The messages of `expect` statements that cannot be evaluated.
extension DiagnosticMessage {
  /// `matches` with a pattern that is not a regular expression.
  static func badPattern(_ pattern: String) -> DiagnosticMessage {
    DiagnosticMessage(id: "bad-pattern", "'\(pattern)' is not a valid regular expression")
  }

  /// `matches` with a pattern that is not a string.
  static func patternNotText(_ kind: String) -> DiagnosticMessage {
    DiagnosticMessage(id: "pattern-not-text", "'matches' needs a string pattern, found \(kind)")
  }
}
