/// Why a statement failed, as a value: its kind (which gives the exit code), what it said about
/// it (`message`, the first line, and `detail`, the lines after), and the answer it failed with,
/// whose code and message `expect error` reads. Whoever ran the statement reports it from these
/// fields (the script runner's error line, JUnit, TAP and JSON reports); nothing re-reads the
/// printed text.
///
/// ```swift
/// let failure = StatementFailure(.usage, message: "no help on 'x': try ...")
/// failure.exitCode   // .usage (2)
/// ```
struct StatementFailure: Error, Sendable, Equatable {
  enum Kind: Sendable, Equatable {
    /// The server said no (exit code 1).
    case server
    /// An `expect` that did not hold (1): what it wanted, what it found.
    case expectation(expected: String, found: String)
    /// It could not run as written: a value, a variable, a file, an unknown topic (2).
    case usage
    /// The project could not be reached, or the session could not be used (3).
    case unreachable
    /// The project answered, but its relay could not reach the Edge Function (4).
    case relay
    /// A statement of a `run` file failed and was reported there, with its own exit code.
    case reported
  }

  var kind: Kind
  /// The answer it failed with (a request's error, a refused sign-in), if one came.
  var outcome: StatementOutcome?
  /// What happened, when it is more than the kind says ("the project refused the API key",
  /// "timed out after 5 s"): the script runner's error line names it.
  var headline: String?
  /// The first line of what the statement said about its failure, without `snm: `
  /// (`error 23505 (HTTP 409): duplicate key ...`); nil when it said nothing.
  var message: String?
  /// The lines it said after `message` (details, hint, advice), if any.
  var detail: String?

  init(
    _ kind: Kind, outcome: StatementOutcome? = nil, headline: String? = nil,
    message: String? = nil, detail: String? = nil
  ) {
    self.kind = kind
    self.outcome = outcome
    self.headline = headline
    self.message = message
    self.detail = detail
  }

  /// A failure of `kind` that says `text`: its first line is the message, the rest the detail.
  init(
    _ kind: Kind, saying text: String, outcome: StatementOutcome? = nil, headline: String? = nil
  ) {
    let lines = text.split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false)
    let rest = lines.count > 1 ? String(lines[1]) : ""
    self.init(
      kind, outcome: outcome, headline: headline, message: lines.first.map(String.init) ?? "",
      detail: rest.isEmpty ? nil : rest)
  }

  /// What a statement that needs the service key (`admin ...`, `inbox`, `as service`) says
  /// without one.
  static let noServiceKey =
    "this statement needs the project's service key: pass --service-key, set "
    + "SUPABASE_SERVICE_ROLE_KEY (or SUPABASE_SECRET_KEY), or add \"service_key\" to the profile"

  /// The server's code (`23505`, `PGRST116`, `invalid_credentials`), when it named one.
  var code: String? { outcome?.failure?.code }
  /// The server's first line of explanation, when an answer came.
  var serverMessage: String? { outcome?.failure?.message }

  /// The exit code it gives the run (nil: the one the `run` file already recorded).
  var exitCode: ExitCode? {
    switch kind {
    case .server, .expectation: .failure
    case .usage: .usage
    case .unreachable: .unreachable
    case .relay: .relay
    case .reported: nil
    }
  }
}
