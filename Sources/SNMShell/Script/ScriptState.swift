import SNMQuery

/// What the script runner keeps between statements: the results `expect` reads, the failures so
/// far, the exit code, the `run` files being run. A plain value the ``ScriptRunner`` owns.
///
/// ```swift
/// runner.state.last      // the last answer a statement got
/// ```
struct ScriptState: Sendable {
  /// Script files read so far, shared by every `run` of this runner (and by the runners of a
  /// file's tries under `snm test --retry`: a FIFO is read once).
  var loader = ScriptLoader()
  /// The last statement that sent a request (or signed in): what `expect rows|status` read.
  var last: StatementOutcome?
  /// The answer of the statement running now, or of the last statement of the `run` file it
  /// ran (nil when none came).
  var current: StatementOutcome?
  /// The statement before the one running now (nil before the first): what `expect error` reads.
  var previous: StatementOutcome?
  /// Everything that went wrong, in order.
  var failures: [ScriptFailure] = []
  /// The last statement run, for `\e` and `\watch` (neither of which replaces it).
  var lastStatement: (statement: Statement, source: Source)?
  /// Statements run and expectations that held.
  var statements = 0
  var expectations = 0
  /// The statements running now, outermost first: a `run` and the statement inside its file.
  var running: [Frame] = []
  /// The first failure's exit code (an interruption's replaces it).
  var failure: ExitCode?
  /// Set by `exit`/`quit`/`\q` and by a signal: the run ends after this statement.
  var exitRequested = false
  /// Whether the statement a signal stopped has been named already.
  var interruptionReported = false
  /// The names of the sources that are files (a `run` in them is relative to their directory).
  var files: Set<String> = []
  /// A failure not reported yet: the next statement decides (`expect error` forgives it).
  var pending: Pending?
  /// `defer` statements not run yet, in the order written (run in reverse when their file ends).
  var deferred: [Frame] = []
  /// The last statement that sent a request, which `expect ... within` sends again.
  var lastRequest: Frame?
  /// How many `run` files (`\i`) are running: inside one, even at the prompt, statements run as a
  /// script's do (the first failure stops the file and names its `file:line:col`).
  var including = 0

  /// A failed statement waiting to see whether `expect error` follows it.
  struct Pending: Sendable {
    /// The failure as it will be reported.
    var failure: ScriptFailure
    /// The exit code it sets when reported.
    var code: ExitCode
  }

  /// Notes what a statement that ran gave: its answer is what `expect rows|status` reads from
  /// now on, and it (or `message`, for a failure without an answer) what `expect error` reads
  /// next.
  mutating func remember(_ result: StatementResult, failedWith message: String) {
    let outcome: StatementOutcome? =
      switch result {
      case .succeeded(let outcome): outcome
      case .failed(let failure): failure.outcome
      case .interrupted: nil
      }
    if let outcome {
      last = outcome
      current = outcome
    }
    previous = current ?? (result.succeeded ? .none : .failed(message: message))
  }

  /// One statement being run, in its file.
  struct Frame: Sendable {
    var source: Source
    var statement: Statement

    /// `file:line:col`, the file's name with its hidden characters escaped (`\u{1B}`), as a
    /// diagnostic shows it: a name is anyone's who made the file (a cloned repository's tests).
    var location: String {
      let place = source.location(of: statement.range.start)
      return "\(VisibleText.escaped(source.fileName)):\(place.line):\(place.column)"
    }

    /// The statement as written, on one line, a password in it masked.
    var text: String { ScriptFailure.oneLine(StatementText.display(statement, in: source)) }
  }
}
