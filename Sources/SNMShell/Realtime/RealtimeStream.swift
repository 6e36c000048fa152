import Foundation
import SNMQuery

/// `snm listen <what>`: one `listen` statement, then its events on standard output as they
/// arrive, one line each (JSON for `--format json|ndjson`, else `<subscription> <kind> <fields>`),
/// flushed at once, for pipes and CI.
///
/// ```swift
/// let stream = RealtimeStream(words: "todos insert", count: 2)
/// let code = await executor.stoppingOnSignals { await stream.run(executor: executor) }
/// ```
/// It ends with 0 after `count` events or `milliseconds`, 130/143 on SIGINT/SIGTERM, 1 when the
/// server closes the channel (a rate limit, a policy) and 3 when the socket ends or the server's
/// stream fails (saying so: it never stops silently). A `listen`
/// that does not go live is its own exit code (1, 2 or 3), as in a script. It ends, too, at the
/// first event its standard output's reader went away from (0: `| head -1`) or that could not be
/// written there (1, a full disk).
public struct RealtimeStream: Sendable, Equatable {
  /// What follows `listen` (`todos insert where id gt 3`, `channel room1`).
  public var words: String
  /// Stop after this many events.
  public var count: Int?
  /// Stop after this long.
  public var milliseconds: Int?

  public init(words: String, count: Int? = nil, milliseconds: Int? = nil) {
    self.words = words
    self.count = count
    self.milliseconds = milliseconds
  }

  /// Listens, then prints events until told to stop or the server ends it.
  public func run(executor: StatementExecutor) async -> ExitCode {
    let text = "listen " + words
    let script = Parser.parse(Source(text: text, fileName: "<command line>"))
    if !script.hasErrors {
      guard script.statements.count == 1, case .realtime(.listen) = script.statements[0].kind
      else {
        executor.report(
          "snm listen takes one subscription: a table or 'channel <name>', not '\(words)'")
        return .usage
      }
    }
    var runner = ScriptRunner(executor: executor)
    let listened = await runner.run(text: text, name: "<command line>")
    guard listened == .success else { return listened }
    let session = executor.realtime
    guard let name = session.names.first else { return .failure }
    let code = await stream(name, session: session, executor: executor)
    await session.leaveAll()
    return code
  }

  /// The events of `name`, printed as they come, until the count, the time, a signal or the end.
  private func stream(_ name: String, session: RealtimeSession, executor: StatementExecutor) async
    -> ExitCode
  {
    let quiet = executor.currentSettings.quiet
    // On standard error, so a pipe gets only events; a reader can wait for it before writing.
    if !quiet { executor.report("listening to \(name)") }
    let format = executor.currentSettings.format
    let end = ContinuousClock.now + .milliseconds(milliseconds ?? Self.aCentury)
    var received = 0
    while count.map({ received < $0 }) ?? true {
      switch await session.next(from: [name], until: end, matching: { _ in true }) {
      case .event(let event):
        let output = executor.baseOutput
        output.write(event.shownLine(format: format, terminal: output.isTerminal) + "\n")
        output.flush()
        received += 1
        // Nothing more can be read (`| head -1` went away: ended quietly) or written (a full
        // disk: said as snm ends): listening on would go on for ever, losing every event.
        if let failed = output.writeFailure { return failed == EPIPE ? .success : .failure }
      case .none:
        return .success
      case .ended(let end):
        executor.report(
          "listen \(name): \(end.ended); no more events (\(Self.events(received)) received)")
        return end.exitCode
      case .cancelled:
        if !quiet {
          executor.report("stopped listening to \(name) (\(Self.events(received)) received)")
        }
        return executor.interruption == SIGTERM ? .terminated : .interrupted
      }
    }
    return .success
  }

  /// No `--for`: wait as good as forever.
  static let aCentury = 100 * 365 * 86_400 * 1000

  static func events(_ count: Int) -> String {
    count == 1 ? "1 event" : "\(count) events"
  }
}
