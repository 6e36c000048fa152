import Foundation
import SNMQuery

extension ScriptRunner {
  /// How a run of statements ended.
  enum RunEnd: Sendable, Equatable {
    /// Every statement succeeded, or had its failure forgiven by `expect error`.
    case succeeded
    /// One failed (and was reported, or waits for the next chunk of standard input).
    case failed
    /// A signal stopped it; the statement it stopped was named.
    case interrupted(Int32)
  }

  /// Runs checked statements in order, as a script does: each failure is reported with its
  /// `file:line:col`, the statement and (for `expect`) what was expected versus found; the first
  /// one stops the rest unless `on_error` is `continue`. A failed statement followed by
  /// `expect error` is not a failure.
  ///
  /// `complete` says no statement follows these (a file, `-c`); standard input runs a chunk at a
  /// time, so a failure at the end of a chunk waits for the next one (or `finishScript()`).
  mutating func runStatements(
    _ statements: some Sequence<Statement>, in source: Source, complete: Bool
  )
    async -> RunEnd
  {
    let mark = state.deferred.count
    let end = await runEach(statements, in: source, complete: complete)
    guard complete && !atPrompt else { return end }
    // The file's own result is reported first; then its `defer` statements run.
    let deferredFailed = await runDeferred(from: mark)
    return end == .succeeded && deferredFailed ? .failed : end
  }

  mutating func runEach(
    _ statements: some Sequence<Statement>, in source: Source, complete: Bool
  )
    async -> RunEnd
  {
    let interactive = atPrompt
    var end = RunEnd.succeeded
    for statement in statements {
      if interactive {
        if !(await runAtPrompt(statement, in: source)) { end = .failed }
        await sayLostOutputAtPrompt()
        if state.exitRequested { break }
        continue
      }
      if !settle(before: statement) {
        end = .failed
        if executor.currentSettings.onError == .stop { return .failed }
      }
      if let signal = executor.interruption {
        reportInterruption(at: ScriptState.Frame(source: source, statement: statement), by: signal)
        return .interrupted(signal)
      }
      if state.exitRequested { return end }
      if stopsForLostOutput(before: ScriptState.Frame(source: source, statement: statement)) {
        return .failed
      }
      if executor.currentSettings.echo {
        executor.emit(StatementText.display(statement, in: source))
      }
      switch await runTracked(statement, in: source) {
      case .succeeded, .pending: break
      case .interrupted(let signal): return .interrupted(signal)
      case .failed:
        end = .failed
        if executor.currentSettings.onError == .stop { return .failed }
      }
      if state.exitRequested { break }
    }
    if complete && !finishScript() { return .failed }
    return end
  }

  /// Whether statements run as typed at the prompt (each one whatever came before), not as a
  /// script's: at an interactive prompt, outside any `run` file (`\i`).
  var atPrompt: Bool { executor.interactive && state.including == 0 }

  /// Reports a failure still waiting at the end of the input (standard input's last chunk), and
  /// output lost by its last statement. Returns whether there was none.
  public mutating func finishScript() -> Bool {
    let settled = settle(before: nil)
    return !stopsForLostOutput(before: nil) && settled
  }

  /// Whether the run's output was lost (``StatementExecutor/takeOutputLoss()``): then it says
  /// so, naming `next`, the statement it stops before (a statement run after its report is lost
  /// is an effect no one sees), and the run ends with exit code 1 whatever `on_error` says.
  /// With no statement next, what was printed is said to be incomplete.
  mutating func stopsForLostOutput(before next: ScriptState.Frame?) -> Bool {
    guard let loss = executor.takeOutputLoss() else { return false }
    let message = next.map { loss.stopping(before: $0.location, $0.text) } ?? loss.ending
    let text = "snm: \(message)\n"
    executor.baseErrors.write(text)
    executor.baseErrors.flush()
    state.failures.append(
      ScriptFailure(
        kind: .error, location: next?.location ?? "", statement: next?.text ?? "",
        message: message, text: text))
    fail(.failure)
    state.exitRequested = true
    return true
  }

  /// At the prompt, output lost by the statement just run is said; results `\o` sent to a file
  /// that cannot be written go to standard output again.
  mutating func sayLostOutputAtPrompt() async {
    guard let loss = executor.takeOutputLoss() else { return }
    executor.baseErrors.write("snm: \(loss.ending)\n")
    executor.baseErrors.flush()
    if loss.toFile { _ = await executor.run(PsqlCommand(.output(nil))) }
  }

  /// How one statement of a script ended.
  enum TrackedResult {
    /// It succeeded.
    case succeeded
    /// It failed and was reported (inside a `run` file).
    case failed
    /// It failed; the next statement decides whether that is reported (`settle`).
    case pending
    /// A signal stopped it (named already).
    case interrupted(Int32)
  }

  /// Runs one statement with its error output held back, then reports or holds its failure.
  mutating func runTracked(_ statement: Statement, in source: Source) async -> TrackedResult {
    let frame = ScriptState.Frame(source: source, statement: statement)
    state.current = nil
    state.running.append(frame)
    state.statements += 1
    let capture = OutputWriter()
    let result = await run(statement, in: source, routing: StatementRouting(errors: capture))
    let captured = capture.captured
    state.running.removeLast()
    state.remember(result, failedWith: result.failure?.message ?? "")
    // Its output is written: a signal that came before its last byte was is heard now. (At the
    // prompt, in a `run` file, a signal that stopped its rows' output stops the file.)
    executor.signals.settle()
    if let signal = executor.interruption ?? result.signal ?? executor.outputsStoppedBy {
      reportInterruption(at: frame, by: signal)
      return .interrupted(signal)
    }
    switch result {
    case .succeeded, .interrupted:
      executor.baseErrors.write(captured)
      executor.baseErrors.flush()
      return .succeeded
    case .failed(let failure):
      guard let code = failure.exitCode else {
        fail(.failure)
        return .failed
      }
      let described = describeFailure(at: frame, code: code, failure: failure, captured: captured)
      state.pending = .init(failure: described, code: code)
      return .pending
    }
  }

  /// Decides the failure waiting from the statement before `next`: `expect error` forgives it,
  /// anything else (or the end, `nil`) reports it. Returns false when one was reported.
  @discardableResult
  mutating func settle(before next: Statement?) -> Bool {
    guard let pending = state.pending else { return true }
    state.pending = nil
    if let next, case .expect(.error) = next.kind { return true }
    executor.baseErrors.write(pending.failure.text)
    executor.baseErrors.flush()
    state.failures.append(pending.failure)
    fail(pending.code)
    return false
  }

  /// `snm: interrupted at file:line:col: statement`, recorded as the script's failure (once: the
  /// `run` statements around it say nothing more). The script ends with 130 or 143.
  mutating func reportInterruption(at frame: ScriptState.Frame, by signal: Int32) {
    let code: ExitCode = signal == SIGTERM ? .terminated : .interrupted
    state.failure = code
    state.exitRequested = true
    guard !state.interruptionReported else { return }
    state.interruptionReported = true
    let verb = code == .terminated ? "terminated" : "interrupted"
    let text = "snm: \(verb) at \(frame.location): \(frame.text)\n"
    executor.baseErrors.write(text)
    executor.baseErrors.flush()
    let failure = ScriptFailure(
      kind: .interrupted, location: frame.location, statement: frame.text,
      message: "\(verb) (\(code == .terminated ? "SIGTERM" : "SIGINT"))", text: text)
    state.failures.append(failure)
  }

  /// The failure of `frame` as the script reports it, secret values masked.
  func describeFailure(
    at frame: ScriptState.Frame, code: ExitCode, failure: StatementFailure, captured: String
  ) -> ScriptFailure {
    executor.secretValues.mask(
      unmaskedFailure(at: frame, code: code, failure: failure, captured: captured))
  }

  func unmaskedFailure(
    at frame: ScriptState.Frame, code: ExitCode, failure: StatementFailure, captured: String
  ) -> ScriptFailure {
    let notes = state.running.reversed().map {
      "\($0.location): note: run from here\n"
    }.joined()
    switch failure.kind {
    case .expectation(let expected, let found):
      let message = "expectation failed: \(frame.text)"
      return ScriptFailure(
        kind: .expectation, location: frame.location, statement: frame.text, message: message,
        expected: expected, found: found,
        text: "\(frame.location): error: \(message)\n  expected: \(VisibleText.escaped(expected))\n"
          + "  found:    \(VisibleText.escaped(found))\n" + notes)
    default:
      let (kind, label): (ScriptFailure.Kind, String) =
        switch code {
        case .unreachable:
          if let headline = failure.headline {
            (.unreachable, headline)
          } else if case .session = frame.statement.kind {
            (.unreachable, "sign-in failed")
          } else {
            (.unreachable, "could not reach the project")
          }
        case .usage: (.error, "statement could not run")
        default: (.statement, "statement failed")
        }
      let message = "\(label): \(frame.text)"
      let said = failure.message ?? ""
      return ScriptFailure(
        kind: kind, location: frame.location, statement: frame.text,
        message: said.isEmpty ? message : "\(message): \(said)",
        text: "\(frame.location): error: \(message)\n\(captured)\(notes)")
    }
  }
}

extension StatementOutcome {
  /// A statement that succeeded without a result of its own (`echo`, `set`, `expect`).
  static let none = StatementOutcome(status: nil, value: .null, rowCount: 0)
}
