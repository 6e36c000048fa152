/// What running one statement gave. Statements print their own output and errors and return
/// this; whoever ran them (the script runner, the prompt loop) decides what it means: the exit
/// code, what `expect` reads next, whether the run goes on.
///
/// ```swift
/// switch await runner.dispatch(statement, in: source) {
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
