import SNMQuery

/// What the script runner keeps between statements: the results `expect` reads, the failures so
/// far, the `run` files being run, and where a signal found the script.
///
/// ```swift
/// shell.script.withLock { $0.last }      // the last request's outcome
/// ```
struct ScriptState: Sendable {
  /// Parsed script files, shared by every `run` of this shell.
  let loader = ScriptLoader()
  /// The last statement that sent a request (or signed in): what `expect rows|status` read.
  var last: StatementOutcome?
  /// What the statement running now recorded (nil until it records something).
  var current: StatementOutcome?
  /// The statement before the one running now (nil before the first): what `expect error` reads.
  var previous: StatementOutcome?
  /// Why the statement running now failed, when it knows better than its error output.
  var problem: Problem?
  /// Everything that went wrong, in order.
  var failures: [ScriptFailure] = []
  /// Statements run and expectations that held.
  var statements = 0
  var expectations = 0
  /// The statements running now, outermost first: a `run` and the statement inside its file.
  var running: [Frame] = []
  /// SIGINT or SIGTERM, once one has stopped the script.
  var signal: Int32?
  /// Whether the statement a signal stopped has been named already.
  var interruptionReported = false
  /// Where the shell's error output goes while a statement runs (nil: the shell's own).
  var errorsOverride: OutputWriter?
  /// The names of the sources that are files (a `run` in them is relative to their directory).
  var files: Set<String> = []
  /// A failure not reported yet: the next statement decides (`expect error` forgives it).
  var pending: Pending?

  /// A failed statement waiting to see whether `expect error` follows it.
  struct Pending: Sendable {
    /// The failure as it will be reported.
    var failure: ScriptFailure
    /// The exit code it sets when reported.
    var code: ExitCode
  }

  /// A failure the loop reports in its own words.
  enum Problem: Sendable, Equatable {
    /// An `expect` that did not hold.
    case expectation(expected: String, found: String)
    /// A failure inside a `run` file, reported there already.
    case reported
  }

  /// One statement being run, in its file.
  struct Frame: Sendable {
    var source: Source
    var statement: Statement

    /// `file:line:col`.
    var location: String {
      let place = source.location(of: statement.range.start)
      return "\(source.fileName):\(place.line):\(place.column)"
    }

    /// The statement as written, on one line, a password in it masked.
    var text: String { ScriptFailure.oneLine(StatementText.display(statement, in: source)) }
  }
}
