import Foundation
import SNMQuery
import Synchronization

extension Shell {
  /// Reads and runs statements until `exit`, Ctrl-D or the end of input.
  ///
  /// At a terminal every statement runs whatever happened before; from a pipe the first failure
  /// stops the loop unless `on_error` is `continue`. Returns the exit code for the whole session.
  public func runPrompt(reader: any LineReader) async -> ExitCode {
    var buffer = StatementBuffer(isComplete: { !Lexer.needsContinuation($0) })
    state.withLock { $0.interactive = reader.isInteractive }
    let lines = LineReaderThread(reader: reader)
    defer { lines.finish() }
    // Lines read so far, so that a failure on standard input names its real line.
    var linesRead = 0
    while true {
      if reader.isInteractive { await updateSignedInName() }
      let prompt = reader.isInteractive ? promptText(continuing: !buffer.isEmpty) : ""
      let input: LineInput
      switch await read(
        lines, interactive: reader.isInteractive, prompt: prompt, pending: buffer.pending)
      {
      case .input(let line): input = line
      case .signalled(let signal):
        reader.abandonLine()
        return signal == SIGTERM ? .terminated : .interrupted
      }
      switch input {
      case .end:
        if !buffer.isEmpty {
          let pending = buffer.pending
          let first =
            linesRead - pending.split(separator: "\n", omittingEmptySubsequences: false).count
          _ = await execute(pending, source: "stdin", complete: true, firstLine: first + 1)
        }
        _ = finishScript()
        return state.withLock { reader.isInteractive ? .success : ($0.failure ?? .success) }
      case .interrupted:
        linesRead += buffer.lines.count
        buffer.reset()
      case .line(let line):
        linesRead += 1
        guard let text = buffer.add(line) else { continue }
        if text.allSatisfy(\.isWhitespace) { continue }
        reader.remember(text)
        let first = linesRead - text.split(separator: "\n", omittingEmptySubsequences: false).count
        let succeeded = await execute(
          text, source: reader.isInteractive ? "prompt" : "stdin", complete: false,
          firstLine: reader.isInteractive ? 1 : first + 1)
        if state.withLock({ $0.exitRequested }) {
          return state.withLock { reader.isInteractive ? .success : ($0.failure ?? .success) }
        }
        if !succeeded && !reader.isInteractive && currentSettings.onError == .stop {
          return state.withLock { $0.failure ?? .failure }
        }
      }
    }
  }

  /// Runs a statement at the prompt: errors print as they come; a failed `expect` says why;
  /// Ctrl-C cancels the statement and the prompt comes back, SIGTERM ends the session.
  func runAtPrompt(_ statement: Statement, in source: Source) async -> Bool {
    script.withLock { $0.current = nil }
    if currentSettings.echo { emit(StatementText.display(statement, in: source)) }
    let result = await run(statement, in: source)
    script.withLock { $0.remember(result, failedWith: "the statement failed") }
    switch result {
    case .succeeded:
      return true
    case .failed(let failure):
      if case .expectation(let expected, let found) = failure.kind {
        // What was found may be a server's data: shown with control characters escaped.
        errors.write(
          "expectation failed\n  expected: \(VisibleText.escaped(expected))\n"
            + "  found:    \(VisibleText.escaped(found))\n")
        errors.flush()
      }
      return false
    case .interrupted(let signal) where signal == SIGTERM:
      report("interrupted: \(StatementText.display(statement, in: source))")
      state.withLock {
        $0.failure = .terminated
        $0.exitRequested = true
      }
      return false
    case .interrupted:
      // At a terminal the line holds the echoed ^C (or the spinner): start it afresh.
      if Terminal.isTerminal(STDERR_FILENO) { errors.write("\r\u{1B}[K") }
      report("cancelled")
      return false
    }
  }

  /// `snm anon@local> `, or its continuation `             -> ` of the same width.
  func promptText(continuing: Bool) -> String {
    let main = "snm \(signedInName())@\(project.name)> "
    if continuing {
      return String(repeating: " ", count: max(0, main.count - 3)) + "-> "
    }
    guard currentSettings.colour else { return main }
    // \u{1} brackets escape sequences that take no room, as libedit's EL_PROMPT_ESC wants.
    let trimmed = main.dropLast(2)
    return "\u{1}\u{1B}[1m\u{1}\(trimmed)\u{1}\u{1B}[0m\u{1}> "
  }

  /// Who the prompt says is signed in; without a session, the role of the project's key (`anon`,
  /// or `service_role` for a secret key).
  func signedInName() -> String {
    signedIn.withLock { $0 } ?? project.keyRole
  }

  /// What one read at the prompt gave.
  enum PromptRead: Sendable, Equatable {
    /// The reader's answer.
    case input(LineInput)
    /// A signal that ends the loop came first: SIGTERM, or SIGINT when reading a pipe.
    case signalled(Int32)
  }

  /// Reads one line on the loop's reading thread (the editor blocks).
  ///
  /// A SIGTERM meanwhile ends the loop at once (143); so does SIGINT when reading a pipe (130).
  /// At the prompt Ctrl-C is a key (the line is abandoned) and a SIGINT from elsewhere is ignored.
  /// The thread is left blocked then: the process is about to end.
  func read(_ lines: LineReaderThread, interactive: Bool, prompt: String, pending: String) async
    -> PromptRead
  {
    let once = ResumeOnce<PromptRead>()
    return await signals.watch(onSignal: { received in
      if received == SIGTERM || !interactive { once.resume(.signalled(received)) }
    }) {
      lines.read(prompt: prompt, pending: pending) { once.resume(.input($0)) }
      return await withCheckedContinuation { once.attach($0) }
    }
  }
}
