import Foundation
import SNMQuery

extension Shell {
  /// Runs checked statements in order, as a script does: each failure is reported with its
  /// `file:line:col`, the statement and (for `expect`) what was expected versus found; the first
  /// one stops the rest unless `on_error` is `continue`. A failed statement followed by
  /// `expect error` is not a failure.
  ///
  /// `complete` says no statement follows these (a file, `-c`); standard input runs a chunk at a
  /// time, so a failure at the end of a chunk waits for the next one (or `finishScript()`).
  /// Returns whether every statement succeeded (or had its failure forgiven).
  func runStatements(_ statements: [Statement], in source: Source, complete: Bool) async -> Bool {
    let interactive = state.withLock { $0.interactive }
    var succeeded = true
    for statement in statements {
      if interactive {
        succeeded = await runAtPrompt(statement, in: source) && succeeded
        if state.withLock({ $0.exitRequested }) { break }
        continue
      }
      if !settle(before: statement) {
        succeeded = false
        if currentSettings.onError == .stop { return false }
      }
      if let signal = script.withLock({ $0.signal }) {
        let code: ExitCode = signal == SIGTERM ? .terminated : .interrupted
        reportInterruption(at: ScriptState.Frame(source: source, statement: statement), code: code)
        return false
      }
      if state.withLock({ $0.exitRequested }) { return succeeded }
      if currentSettings.echo { emit(StatementText.display(statement, in: source)) }
      switch await runTracked(statement, in: source) {
      case .succeeded, .pending: break
      case .interrupted: return false
      case .failed:
        succeeded = false
        if currentSettings.onError == .stop { return false }
      }
      if state.withLock({ $0.exitRequested }) { break }
    }
    if complete && !settle(before: nil) { return false }
    return succeeded
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
    /// A signal stopped it.
    case interrupted
  }

  /// Runs one statement with its error output held back, then reports or holds its failure.
  func runTracked(_ statement: Statement, in source: Source) async -> TrackedResult {
    let frame = ScriptState.Frame(source: source, statement: statement)
    let before = state.withLock { state in
      defer { state.failure = nil }
      return state.failure
    }
    let capture = OutputWriter()
    let outer = script.withLock { script in
      defer {
        script.current = nil
        script.problem = nil
        script.running.append(frame)
        script.statements += 1
        script.errorsOverride = capture
      }
      return script.errorsOverride
    }
    let ok = await run(statement, in: source)
    let (outcome, problem, signal) = script.withLock { script in
      script.errorsOverride = outer
      script.running.removeLast()
      return (script.current, script.problem, script.signal)
    }
    let code = state.withLock { $0.failure }
    let captured = capture.captured
    script.withLock {
      $0.previous = outcome ?? (ok ? .none : .failed(message: Self.firstLine(of: captured)))
    }
    if signal != nil || code == .interrupted || code == .terminated {
      let signalCode: ExitCode =
        signal.map { $0 == SIGTERM ? .terminated : .interrupted } ?? code ?? .interrupted
      reportInterruption(at: frame, code: signalCode)
      return .interrupted
    }
    if ok {
      baseErrors.write(captured)
      baseErrors.flush()
      state.withLock { $0.failure = before }
      return .succeeded
    }
    state.withLock { $0.failure = before }
    if problem == .reported {
      state.withLock { $0.failure = $0.failure ?? code ?? .failure }
      script.withLock { $0.problem = .reported }
      return .failed
    }
    let failure = describeFailure(
      at: frame, code: code ?? .failure, problem: problem, captured: captured)
    script.withLock { $0.pending = .init(failure: failure, code: code ?? .failure) }
    return .pending
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

  /// Runs a statement at the prompt: errors print as they come; a failed `expect` says why.
  func runAtPrompt(_ statement: Statement, in source: Source) async -> Bool {
    script.withLock {
      $0.problem = nil
      $0.current = nil
    }
    if currentSettings.echo { emit(StatementText.display(statement, in: source)) }
    let ok = await run(statement, in: source)
    script.withLock {
      $0.previous = $0.current ?? (ok ? .none : .failed(message: "the statement failed"))
    }
    if !ok, case .expectation(let expected, let found)? = script.withLock({ $0.problem }) {
      // What was found may be a server's data: shown with control characters escaped.
      errors.write(
        "expectation failed\n  expected: \(VisibleText.escaped(expected))\n"
          + "  found:    \(VisibleText.escaped(found))\n")
      errors.flush()
    }
    return ok
  }

  /// Called from the signal watcher: the script stops at the statement running now.
  public func interrupt(_ signal: Int32) {
    script.withLock { $0.signal = $0.signal ?? signal }
  }

  /// `snm: interrupted at file:line:col: statement`, recorded as the script's failure (once: the
  /// `run` statements around it say nothing more). The script ends with 130 or 143.
  func reportInterruption(at frame: ScriptState.Frame, code: ExitCode) {
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
    script.withLock {
      $0.failures.append(failure)
      $0.problem = .reported
    }
  }

  /// The failure of `frame` as the script reports it, secret values masked.
  func describeFailure(
    at frame: ScriptState.Frame, code: ExitCode, problem: ScriptState.Problem?, captured: String
  ) -> ScriptFailure {
    secretValues.mask(
      unmaskedFailure(at: frame, code: code, problem: problem, captured: captured))
  }

  func unmaskedFailure(
    at frame: ScriptState.Frame, code: ExitCode, problem: ScriptState.Problem?, captured: String
  ) -> ScriptFailure {
    let notes = script.withLock { $0.running }.reversed().map {
      "\($0.location): note: run from here\n"
    }.joined()
    switch problem {
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
