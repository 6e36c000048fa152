import Foundation
import SNMQuery

extension Shell {
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
  func runStatements(_ statements: [Statement], in source: Source, complete: Bool) async
    -> RunEnd
  {
    let interactive = state.withLock { $0.interactive }
    var end = RunEnd.succeeded
    for statement in statements {
      if interactive {
        if !(await runAtPrompt(statement, in: source)) { end = .failed }
        if state.withLock({ $0.exitRequested }) { break }
        continue
      }
      if !settle(before: statement) {
        end = .failed
        if currentSettings.onError == .stop { return .failed }
      }
      if let signal = script.withLock({ $0.signal }) {
        reportInterruption(at: ScriptState.Frame(source: source, statement: statement), by: signal)
        return .interrupted(signal)
      }
      if state.withLock({ $0.exitRequested }) { return end }
      if currentSettings.echo { emit(StatementText.display(statement, in: source)) }
      switch await runTracked(statement, in: source) {
      case .succeeded, .pending: break
      case .interrupted(let signal): return .interrupted(signal)
      case .failed:
        end = .failed
        if currentSettings.onError == .stop { return .failed }
      }
      if state.withLock({ $0.exitRequested }) { break }
    }
    if complete && !settle(before: nil) { return .failed }
    return end
  }

  /// Reports a failure still waiting at the end of the input (standard input's last chunk).
  /// Returns whether there was none.
  public func finishScript() -> Bool {
    settle(before: nil)
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
  func runTracked(_ statement: Statement, in source: Source) async -> TrackedResult {
    let frame = ScriptState.Frame(source: source, statement: statement)
    script.withLock { script in
      script.current = nil
      script.running.append(frame)
      script.statements += 1
    }
    let capture = OutputWriter()
    let result = await Shell.$heldErrors.withValue(capture) { await run(statement, in: source) }
    let captured = capture.captured
    let signal = script.withLock { script in
      script.running.removeLast()
      script.remember(result, failedWith: Self.firstLine(of: captured))
      return script.signal
    }
    if let signal = signal ?? result.signal {
      reportInterruption(at: frame, by: signal)
      return .interrupted(signal)
    }
    switch result {
    case .succeeded, .interrupted:
      baseErrors.write(captured)
      baseErrors.flush()
      return .succeeded
    case .failed(let failure):
      guard let code = failure.exitCode else {
        state.withLock { $0.failure = $0.failure ?? .failure }
        return .failed
      }
      let described = describeFailure(at: frame, code: code, failure: failure, captured: captured)
      script.withLock { $0.pending = .init(failure: described, code: code) }
      return .pending
    }
  }

  /// Decides the failure waiting from the statement before `next`: `expect error` forgives it,
  /// anything else (or the end, `nil`) reports it. Returns false when one was reported.
  @discardableResult
  func settle(before next: Statement?) -> Bool {
    guard let pending = script.withLock({ $0.pending }) else { return true }
    script.withLock { $0.pending = nil }
    if let next, case .expect(.error) = next.kind { return true }
    baseErrors.write(pending.failure.text)
    baseErrors.flush()
    script.withLock { $0.failures.append(pending.failure) }
    state.withLock { $0.failure = $0.failure ?? pending.code }
    return false
  }

  /// Called from the signal watcher: the script stops at the statement running now.
  public func interrupt(_ signal: Int32) {
    script.withLock { $0.signal = $0.signal ?? signal }
  }

  /// `snm: interrupted at file:line:col: statement`, recorded as the script's failure (once: the
  /// `run` statements around it say nothing more). The script ends with 130 or 143.
  func reportInterruption(at frame: ScriptState.Frame, by signal: Int32) {
    let code: ExitCode = signal == SIGTERM ? .terminated : .interrupted
    state.withLock {
      $0.failure = code
      $0.exitRequested = true
    }
    let first = script.withLock { script in
      defer { script.interruptionReported = true }
      return !script.interruptionReported
    }
    guard first else { return }
    let verb = code == .terminated ? "terminated" : "interrupted"
    let text = "snm: \(verb) at \(frame.location): \(frame.text)\n"
    baseErrors.write(text)
    baseErrors.flush()
    let failure = ScriptFailure(
      kind: .interrupted, location: frame.location, statement: frame.text,
      message: "\(verb) (\(code == .terminated ? "SIGTERM" : "SIGINT"))", text: text)
    script.withLock { $0.failures.append(failure) }
  }

  /// The failure of `frame` as the script reports it, secret values masked.
  func describeFailure(
    at frame: ScriptState.Frame, code: ExitCode, failure: StatementFailure, captured: String
  ) -> ScriptFailure {
    secretValues.mask(
      unmaskedFailure(at: frame, code: code, failure: failure, captured: captured))
  }

  func unmaskedFailure(
    at frame: ScriptState.Frame, code: ExitCode, failure: StatementFailure, captured: String
  ) -> ScriptFailure {
    let notes = script.withLock { $0.running }.reversed().map {
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
          if case .session = frame.statement.kind {
            (.unreachable, "sign-in failed")
          } else {
            (.unreachable, "could not reach the project")
          }
        case .usage: (.error, "statement could not run")
        default: (.statement, "statement failed")
        }
      let message = "\(label): \(frame.text)"
      let first = Self.firstLine(of: captured)
      return ScriptFailure(
        kind: kind, location: frame.location, statement: frame.text,
        message: first.isEmpty ? message : "\(message): \(first)",
        text: "\(frame.location): error: \(message)\n\(captured)\(notes)")
    }
  }

  /// The first line of `text`, without a leading `snm: `.
  static func firstLine(of text: String) -> String {
    let line = text.split(separator: "\n", maxSplits: 1).first.map(String.init) ?? ""
    return line.hasPrefix("snm: ") ? String(line.dropFirst(5)) : line
  }
}

extension StatementOutcome {
  /// A statement that succeeded without a result of its own (`echo`, `set`, `expect`).
  static let none = StatementOutcome(status: nil, value: .null, rowCount: 0)
}
