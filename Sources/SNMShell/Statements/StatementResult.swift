/// What running one statement gave. Statements print their own output and errors and return
/// this; whoever ran them (the script runner, the prompt loop) decides what it means: the exit
/// code, what `expect` reads next, whether the run goes on.
///
/// ```swift
/// switch await executor.run(statement, in: source) {
/// case .succeeded(let outcome): ...   // outcome: what `expect rows|status` reads (nil: nothing new)
/// case .failed(let failure): ...      // failure.kind gives the exit code; code and message
/// case .interrupted(let signal): ...  // SIGINT or SIGTERM stopped it; nothing was reported
/// }
/// ```
enum StatementResult: Sendable {
  /// It did what it says; `outcome` is the answer it got (a request, a sign-in), if any.
  case succeeded(StatementOutcome?)
  /// It failed, and printed why.
  case failed(StatementFailure)
  /// A signal stopped it before it finished (a request is cancelled).
  case interrupted(Int32)

  /// A failure of `kind` with no answer of its own.
  static func failed(_ kind: StatementFailure.Kind) -> StatementResult {
    .failed(StatementFailure(kind))
  }

  /// Whether it succeeded.
  var succeeded: Bool {
    if case .succeeded = self { return true }
    return false
  }

  /// Why it failed, if it did.
  var failure: StatementFailure? {
    if case .failed(let failure) = self { return failure }
    return nil
  }

  /// The signal that stopped it, if one did.
  var signal: Int32? {
    if case .interrupted(let signal) = self { return signal }
    return nil
  }
}

/// Why a statement failed: its kind (which gives the exit code), and the answer it failed with,
/// whose code and message `expect error` reads.
struct StatementFailure: Sendable, Equatable {
  enum Kind: Sendable, Equatable {
    /// The server said no (exit code 1).
    case server
    /// An `expect` that did not hold (1): what it wanted, what it found.
    case expectation(expected: String, found: String)
    /// It could not run as written: a value, a variable, a file, an unknown topic (2).
    case usage
    /// The project could not be reached, or the session could not be used (3).
    case unreachable
    /// A statement of a `run` file failed and was reported there, with its own exit code.
    case reported
  }

  var kind: Kind
  /// The answer it failed with (a request's error, a refused sign-in), if one came.
  var outcome: StatementOutcome?
  /// What happened, when it is more than the kind says ("the project refused the API key",
  /// "timed out after 5 s"): the script runner's error line names it.
  var headline: String?

  init(_ kind: Kind, outcome: StatementOutcome? = nil, headline: String? = nil) {
    self.kind = kind
    self.outcome = outcome
    self.headline = headline
  }

  /// The server's code (`23505`, `PGRST116`, `invalid_credentials`), when it named one.
  var code: String? { outcome?.failure?.code }
  /// The server's first line of explanation, when an answer came.
  var message: String? { outcome?.failure?.message }

  /// The exit code it gives the run (nil: the one the `run` file already recorded).
  var exitCode: ExitCode? {
    switch kind {
    case .server, .expectation: .failure
    case .usage: .usage
    case .unreachable: .unreachable
    case .reported: nil
    }
  }
}
