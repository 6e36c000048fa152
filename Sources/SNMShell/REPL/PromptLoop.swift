import Foundation
import SNMQuery

/// The prompt: reads statements a line at a time (from a person at a terminal or from a pipe),
/// shows who is signed in, and hands each complete statement to its script runner.
///
/// ```swift
/// var loop = PromptLoop(executor: executor, reader: LibEditLineReader(...))
/// let code = await loop.run()
/// ```
public struct PromptLoop {
  /// Runs the statements; the same one `runner` runs them through.
  public let executor: StatementExecutor
  /// Where lines come from.
  let reader: any LineReader
  /// Runs each statement read and keeps what the session's statements left (what `expect`
  /// reads, the exit code).
  public private(set) var runner: ScriptRunner

  /// A loop reading `reader`, running statements with `executor`; `loader` holds the script
  /// files read so far (those the statements were checked with before: a FIFO is read once).
  public init(
    executor: StatementExecutor, reader: any LineReader, loader: ScriptLoader = ScriptLoader()
  ) {
    self.executor = executor
    self.reader = reader
    self.runner = ScriptRunner(executor: executor, loader: loader)
  }

  /// Reads and runs statements until `exit`, Ctrl-D or the end of input.
  ///
  /// At a terminal every statement runs whatever happened before; from a pipe the first failure
  /// stops the loop unless `on_error` is `continue`. Returns the exit code for the whole session.
  /// Standard input redirected from a file is checked whole before this runs it
  /// (``EarlyCheck``), as `-c` and script files are.
  public mutating func run() async -> ExitCode {
    let code = await readAndRun()
    // `defer` statements typed at the prompt or piped in run when the session ends.
    await runner.runDeferred(from: 0)
    return reader.isInteractive || code != .success ? code : runner.exitCode
  }

  mutating func readAndRun() async -> ExitCode {
    var buffer = StatementBuffer()
    executor.interactive = reader.isInteractive
    if reader.isInteractive { executor.realtime.attach(prompt: reader) }
    let lines = LineReaderThread(reader: reader)
    defer { lines.finish() }
    // Lines read so far, so that a failure on standard input names its real line.
    var linesRead = 0
    while true {
      // Reading a pipe, a SIGINT or SIGTERM that came while a line was being handled (not
      // waiting for one: `read` hears those) ends the loop here; nothing after it runs.
      if !reader.isInteractive, let signal = executor.interruption {
        return signal == SIGTERM ? .terminated : .interrupted
      }
      if reader.isInteractive { await executor.updateSignedInName() }
      let prompt = reader.isInteractive ? promptText(continuing: !buffer.isEmpty) : ""
      let input: LineInput
      switch await read(
        lines, interactive: reader.isInteractive, prompt: prompt,
        pending: reader.isInteractive ? buffer.pending : "")
      {
      case .input(let line): input = line
      case .signalled(let signal):
        reader.abandonLine()
        return signal == SIGTERM ? .terminated : .interrupted
      }
      switch input {
      case .end where reader.isInteractive && !buffer.isEmpty:
        // Ctrl-D on a continuation line: the unfinished statement is dropped, the shell stays.
        linesRead += buffer.lineCount
        buffer.reset()
        executor.baseErrors.write("\nsnm: unfinished statement dropped (Ctrl-D again leaves)\n")
        executor.baseErrors.flush()
      case .end:
        if !buffer.isEmpty {
          let first = linesRead - buffer.lineCount
          _ = await runner.execute(
            buffer.pending, source: "stdin", complete: true, firstLine: first + 1)
        }
        _ = runner.finishScript()
        return reader.isInteractive ? .success : runner.exitCode
      case .unreadable(let problem):
        // What was read of the statement it cut is not run: its end is lost. (`linesRead`
        // counts that statement's lines already.)
        executor.baseErrors.write(
          Self.unreadable(problem, line: reader.isInteractive ? nil : linesRead + 1))
        executor.baseErrors.flush()
        _ = runner.finishScript()
        return problem.exitCode
      case .interrupted:
        linesRead += buffer.lineCount
        buffer.reset()
      case .line(let line):
        linesRead += 1
        // The lines the statement spans, this one with them (the buffer starts over once it is
        // complete).
        let statementLines = buffer.lineCount + 1
        guard let text = buffer.add(line) else { continue }
        if text.allSatisfy(\.isWhitespace) { continue }
        reader.remember(text)
        let first = linesRead - statementLines
        let succeeded = await runner.execute(
          text, source: reader.isInteractive ? "prompt" : "stdin", complete: false,
          firstLine: reader.isInteractive ? 1 : first + 1)
        if runner.state.exitRequested {
          return reader.isInteractive ? .success : runner.exitCode
        }
        if !succeeded && !reader.isInteractive && executor.currentSettings.onError == .stop {
          return runner.state.failure ?? .failure
        }
      }
    }
  }

  /// What is said when standard input cannot be read on at `line` (nothing from there on runs);
  /// at a terminal (`line` nil) the problem alone: what was typed is no script with lines.
  public static func unreadable(_ problem: ScriptLoadError, line: Int?) -> String {
    guard let line else { return "snm: \(problem)\n" }
    return "snm: \(problem), at line \(line): nothing from there on ran\n"
  }

  /// `snm anon@local> `, or its continuation `             -> ` of the same width. The name
  /// comes from a server (a user's e-mail): shown escaped (``VisibleText``), as the project's.
  func promptText(continuing: Bool) -> String {
    let service = continuing ? "" : executor.takeRanAsService() ? "[service]" : ""
    let who = VisibleText.escaped("\(signedInName())@\(executor.project.name)")
    let main = "snm \(who)\(service)> "
    if continuing {
      return String(repeating: " ", count: max(0, main.count - 3)) + "-> "
    }
    guard executor.currentSettings.colour else { return main }
    // \u{1} brackets escape sequences that take no room, as libedit's EL_PROMPT_ESC wants.
    let trimmed = main.dropLast(2)
    return "\u{1}\u{1B}[1m\u{1}\(trimmed)\u{1}\u{1B}[0m\u{1}> "
  }

  /// Who the prompt says is signed in; without a session, the role of the project's key (`anon`,
  /// or `service_role` for a secret key).
  func signedInName() -> String {
    executor.state.withLock { $0.signedIn } ?? executor.project.keyRole
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
    return await executor.signals.watch(onSignal: { received in
      if received == SIGTERM || !interactive { once.resume(.signalled(received)) }
    }) {
      lines.read(prompt: prompt, pending: pending) { once.resume(.input($0)) }
      return await withCheckedContinuation { once.attach($0) }
    }
  }
}
