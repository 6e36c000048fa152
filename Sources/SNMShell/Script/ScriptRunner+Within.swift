import Foundation
import SNMQuery
import SNMWire
import Synchronization

extension ScriptRunner {
  /// `expect ... within 10s [every 500ms]`: checks the expectation, and while it fails sends the
  /// request statement before it again (quietly: its output and errors are dropped) every
  /// interval (1 s unless given, as Hurl's `retry-interval`) until it holds or the time is up.
  /// A signal stops the waiting.
  mutating func runWithin(
    _ expectation: ExpectStatement, timeout: DurationValue, interval: DurationValue?,
    statement: Statement, in source: Source, routing: StatementRouting
  ) async -> StatementResult {
    let deadline = ContinuousClock.now + .milliseconds(timeout.milliseconds)
    let pause = Duration.milliseconds(interval?.milliseconds ?? 1000)
    var tries = 1
    while true {
      // What the check prints is held: shown only when it fails for another reason than not
      // holding yet (a variable that cannot be read).
      let quiet = OutputWriter()
      var held = routing
      held.errors = quiet
      let context = StatementContext(
        last: state.last, previous: state.previous, directory: directory(of: source),
        routing: held)
      let result = await executor.runExpect(expectation, in: source, context: context)
      guard case .failed(let failure) = result,
        case .expectation(let expected, let found) =
          failure.kind
      else {
        if !result.succeeded { executor.statementOutput(routing).errors.write(quiet.captured) }
        return result
      }
      let now = ContinuousClock.now
      guard now < deadline, let request = state.lastRequest else {
        return .failed(
          .expectation(
            expected: expected + " within \(timeout.text)",
            found: found + " (after \(tries) \(tries == 1 ? "try" : "tries"))"))
      }
      if let signal = await sleep(min(pause, deadline - now)) { return .interrupted(signal) }
      tries += 1
      let resent = await resend(request, routing: routing)
      if case .interrupted = resent { return resent }
    }
  }

  /// Sends `frame`'s statement again with its output dropped; its answer becomes the last one.
  mutating func resend(_ frame: ScriptState.Frame, routing: StatementRouting) async
    -> StatementResult
  {
    let quiet = OutputWriter()
    let started = ContinuousClock.now
    var dropped = routing
    (dropped.results, dropped.errors) = (quiet, quiet)
    var result = await dispatch(frame.statement, in: frame.source, routing: dropped)
    result.timed(ContinuousClock.now - started)
    if let outcome = result.outcome {
      state.last = outcome
      executor.bindLast(outcome)
    }
    return result
  }

  /// Sleeps `duration`, waking for a signal (returned): one the script's watcher noted, or one
  /// that arrives now (at the prompt nobody else is watching between requests).
  func sleep(_ duration: Duration) async -> Int32? {
    let caught = Mutex<Int32?>(nil)
    let end = ContinuousClock.now + duration
    return await executor.signals.watch(onSignal: { signal in
      caught.withLock { $0 = $0 ?? signal }
    }) {
      while ContinuousClock.now < end {
        if let signal = caught.withLock({ $0 }) ?? executor.interruption { return signal }
        let step = min(Duration.milliseconds(50), end - ContinuousClock.now)
        try? await Task.sleep(for: step)
      }
      return caught.withLock { $0 } ?? executor.interruption
    }
  }
}

extension StatementResult {
  /// The answer the statement got, if any.
  var outcome: StatementOutcome? {
    switch self {
    case .succeeded(let outcome): outcome
    case .failed(let failure): failure.outcome
    case .interrupted: nil
    }
  }

  /// Notes how long the request took (unless the statement noted it itself).
  mutating func timed(_ duration: Duration) {
    let milliseconds = RequestStatements.milliseconds(of: duration)
    switch self {
    case .succeeded(var outcome?):
      if outcome.milliseconds == nil { outcome.milliseconds = milliseconds }
      self = .succeeded(outcome)
    case .failed(var failure):
      guard var outcome = failure.outcome else { return }
      if outcome.milliseconds == nil { outcome.milliseconds = milliseconds }
      failure.outcome = outcome
      self = .failed(failure)
    default:
      break
    }
  }
}
