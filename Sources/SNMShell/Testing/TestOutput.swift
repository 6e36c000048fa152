import Foundation

/// What `snm test` prints and writes: PASS/FAIL per file, the summary and the reports, for a run
/// against `target` (nil when no file was left to run, so no project was chosen).
struct TestOutput: Sendable {
  let configuration: TestRunner.Configuration
  let output: OutputWriter
  let errors: OutputWriter
  let target: RunTarget?

  /// `PASS  path`, or `FAIL  path` and what went wrong, indented.
  func printProgress(_ result: ScriptResult) {
    let tries = result.attempts > 1 ? " (try \(result.attempts))" : ""
    // A file's name never drives the terminal: control characters in it as escapes.
    let path = VisibleText.escaped(result.path)
    if result.passed {
      guard !configuration.options.quiet else { return }
      output.write("PASS  \(path)\(tries)\n")
    } else if !result.skipped {
      output.write("FAIL  \(path)\(tries)\n")
      for failure in result.failures {
        for text in failure.text.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        {
          output.write(text.isEmpty ? "\n" : "      \(text)\n")
        }
      }
    }
    if configuration.verbose {
      for line in result.trace { output.write("      \(line)\n") }
    }
    output.flush()
  }

  /// The summary (unless `summary` is false), then the reports; returns the run's exit code:
  /// `code`, or 2 when a report cannot be written and `code` is lower. `notRun` counts the files
  /// not run for their check (`refused`) and for want of a project (`unreached`).
  func finish(
    _ results: [ScriptResult], seconds: Double, notRun: (refused: Int, unreached: Int),
    summary: Bool, code: ExitCode
  ) -> ExitCode {
    if summary { printSummary(results, seconds: seconds, notRun: notRun) }
    var code = code
    for report in configuration.reports where !write(report, results) {
      if code.rawValue < ExitCode.usage.rawValue { code = .usage }
    }
    return code
  }

  /// The files not run, the files run and the time taken (`none run` when none was: `ran 0
  /// files` said nothing of why), then `N passed, M failed` as the last line (the files not run
  /// for want of a project are said on the line before, not counted as failed: none has a
  /// `FAIL` of its own).
  func printSummary(
    _ results: [ScriptResult], seconds: Double, notRun: (refused: Int, unreached: Int)
  ) {
    let skipped = results.filter(\.skipped).count
    let passed = results.filter(\.passed).count
    let failed = results.count - passed - skipped - notRun.unreached
    output.write("\n")
    if skipped > 0 {
      output.write("interrupted: \(skipped == 1 ? "1 file" : "\(skipped) files") not run\n")
    }
    if !configuration.options.quiet {
      let files = { (count: Int) in count == 1 ? "1 file" : "\(count) files" }
      let ran = results.count - skipped - notRun.refused - notRun.unreached
      var parts: [String] = []
      if notRun.refused > 0 { parts.append("\(files(notRun.refused)) refused before running") }
      if notRun.unreached > 0 { parts.append("\(files(notRun.unreached)) not run: no project") }
      let head =
        ran > 0 || parts.isEmpty
        ? "ran \(files(ran)) in \(String(format: "%.2f", seconds)) s" : "none run"
      output.write(([head] + parts).joined(separator: ", ") + "\n")
    }
    output.write("\(passed) passed, \(failed) failed\n")
    output.flush()
  }

  /// Writes `report`; returns false (after saying why on standard error) when it cannot.
  func write(_ report: TestReport, _ results: [ScriptResult]) -> Bool {
    guard let failure = report.write(report.kind.render(results, target: target)) else {
      return true
    }
    errors.write("snm: \(failure)\n")
    errors.flush()
    return false
  }
}
