import Foundation

/// Output a run could not write (a full disk, `>&-`, a file past `ulimit -f`, a device's error),
/// in the words snm says it with: where it went and why it failed. A reader that went away
/// (`snm ... | head`, EPIPE) is no loss: output ends quietly.
///
/// ```
/// snm: cannot write results to 'out.txt': no space left on the device (ENOSPC); stopped before
/// seed.snm:3:1: from dog_profile insert {"name": "Rex"} (it and what follows did not run)
/// ```
struct OutputLoss: Sendable, Equatable {
  /// `standard output`, or `results to 'out.txt'` (`\o`'s file).
  let place: String
  /// The errno of the write that failed.
  let code: Int32
  /// Whether it was `\o`'s file.
  var toFile = false

  /// Standard output's loss.
  static func standardOutput(_ code: Int32) -> OutputLoss {
    OutputLoss(place: "standard output", code: code)
  }

  /// `cannot write standard output: no space left on the device (ENOSPC)`.
  var cause: String { "cannot write \(place): \(ScriptLoadError.words(errno: code))" }

  /// What snm says when nothing more was to run: what it printed is incomplete.
  var ending: String { "\(cause); what snm printed there is incomplete" }

  /// What a script says as it stops before `location` (`file:line:col`), `statement`: a
  /// statement run once its output is lost (an insert, a sign-in) has an effect no report shows.
  func stopping(before location: String, _ statement: String) -> String {
    "\(cause); stopped before \(location): \(statement) (it and what follows did not run)"
  }
}

extension StatementExecutor {
  /// Results that could not be written and were not said before: `\o`'s file first, else
  /// standard output. Each loss is given once (then said by whoever took it).
  func takeOutputLoss() -> OutputLoss? {
    if let file = state.withLock({ $0.resultsFile }), let code = file.writer.takeLoss() {
      return OutputLoss(
        place: "results to '\(VisibleText.escaped(file.path))'", code: code, toFile: true)
    }
    return baseOutput.takeLoss().map(OutputLoss.standardOutput)
  }
}
