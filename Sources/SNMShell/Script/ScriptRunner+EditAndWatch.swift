import Foundation
import SNMQuery

extension ScriptRunner {
  /// `\e`: the last statement (nothing when there is none, or when it holds a secret) in the
  /// editor; what the file holds when the editor quits is shown and run, as if typed.
  mutating func runEdit(in source: Source, routing: StatementRouting) async -> StatementResult {
    let output = executor.statementOutput(routing)
    guard Terminal.isTerminal(STDIN_FILENO) else {
      return output.fail(.usage, "\\e needs a terminal: it opens $VISUAL or $EDITOR")
    }
    let last = state.lastStatement
    var text =
      last.map { String(decoding: $0.source.bytes[Self.byteRange($0.statement)], as: UTF8.self) }
      ?? ""
    if !HistoryPolicy.mayRecord(text) { text = "" }
    switch await StatementEditor.edit(text, signals: executor.signals) {
    case .failed(let why):
      return output.fail(.usage, "\(why): nothing run")
    case .edited(let edited):
      let trimmed = edited.trimmingCharacters(in: .whitespacesAndNewlines)
      guard !trimmed.isEmpty else {
        executor.note("the file is empty: nothing run")
        return .succeeded(nil)
      }
      executor.tell(trimmed)
      let succeeded = await execute(trimmed, source: source.fileName)
      return succeeded ? .succeeded(nil) : .failed(.reported)
    }
  }

  /// The statement's bytes in its source.
  static func byteRange(_ statement: Statement) -> Range<Int> {
    statement.range.start..<statement.range.end
  }

  /// `\watch SECONDS [count=N]`: runs the last statement, then again every SECONDS, until Ctrl-C
  /// (or N runs, or a failure). Each run starts with a line naming the statement and the time.
  mutating func runWatch(seconds: Double, count: Int?, routing: StatementRouting) async
    -> StatementResult
  {
    let output = executor.statementOutput(routing)
    guard let (statement, source) = state.lastStatement else {
      return output.fail(.usage, "\\watch runs the last statement again, and there is none yet")
    }
    let interactive = executor.interactive
    let shown = StatementText.display(statement, in: source)
    var runs = 0
    while true {
      runs += 1
      executor.emit("\(Self.watchTime(Date()))  \(shown)  (every \(Self.secondsText(seconds)))\n")
      let result = await run(statement, in: source, routing: routing)
      switch result {
      case .failed:
        return result
      case .interrupted(let signal):
        return endWatch(by: signal, interactive: interactive, errors: output.errors)
      case .succeeded:
        break
      }
      if let count, runs >= count { return .succeeded(nil) }
      if let signal = await pause(seconds: seconds) {
        return endWatch(by: signal, interactive: interactive, errors: output.errors)
      }
    }
  }

  /// Ctrl-C is how a watch ends at the prompt (the echoed `^C` is wiped); anything else stops
  /// the session or the script as the signal would.
  private func endWatch(by signal: Int32, interactive: Bool, errors: OutputWriter)
    -> StatementResult
  {
    guard interactive && signal == SIGINT else { return .interrupted(signal) }
    if Terminal.isTerminal(STDERR_FILENO) {
      errors.write("\r\u{1B}[K")
      errors.flush()
    }
    return .succeeded(nil)
  }

  /// Waits `seconds`; the signal that cut the wait short, or nil.
  private func pause(seconds: Double) async -> Int32? {
    let once = ResumeOnce<Int32?>()
    return await executor.signals.watch(onSignal: { once.resume($0) }) {
      let timer = Task {
        try? await Task.sleep(for: .milliseconds(Int(seconds * 1000)))
        once.resume(nil)
      }
      defer { timer.cancel() }
      return await withCheckedContinuation { once.attach($0) }
    }
  }

  static func watchTime(_ date: Date) -> String {
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.dateFormat = "EEE MMM d HH:mm:ss yyyy"
    return formatter.string(from: date)
  }

  static func secondsText(_ seconds: Double) -> String {
    seconds == seconds.rounded() ? "\(Int(seconds)) s" : "\(seconds) s"
  }
}
