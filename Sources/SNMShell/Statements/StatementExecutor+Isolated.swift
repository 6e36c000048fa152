import Foundation
import SNMNetwork
import SNMSupabase

extension StatementExecutor {
  /// An executor with a session of its own: signed out at the start and kept in
  /// `sessionDirectory`, never in the user's stored session, so `snm test` files cannot see or
  /// spoil each other's.
  ///
  /// ```swift
  /// let executor = StatementExecutor.isolated(
  ///   project: project, options: options, provider: provider,
  ///   sessionDirectory: "/tmp/snm-test-1", output: OutputWriter(), errors: OutputWriter())
  /// ```
  /// `signals` is where its SIGINT and SIGTERM come from (the test runner's); `environment` is
  /// what `$env` reads (the process's when nil).
  public static func isolated(
    project: ProjectSelection, options: ShellOptions, provider: SNMNetworkProvider,
    sessionDirectory: String, output: OutputWriter, errors: OutputWriter,
    signals: InterruptSignals = .shared, environment: [String: String]? = nil
  ) -> StatementExecutor {
    let auth = SupabaseAuthManager(config: project.supabaseConfig, provider: provider)
    let sessions = SessionManager(
      project: project.url.absoluteString, keyMarks: project.sessionKeyMarks,
      store: FileSessionStore(directory: sessionDirectory), auth: auth,
      warn: { message in
        errors.write("snm: warning: \(message)\n")
        errors.flush()
      })
    return StatementExecutor(
      project: project, options: options, output: output, errors: errors, sessions: sessions,
      auth: auth, provider: provider, signals: signals, environment: environment)
  }

  /// Runs `body` (the script files, `-c`, standard input) so that SIGINT or SIGTERM stops it at
  /// the statement running, which it names: `snm: interrupted at a.snm:4:1: rpc sleep_for ...`.
  /// Returns 130 (SIGINT) or 143 (SIGTERM) then.
  ///
  /// `body` waits for each request before doing anything else, so its requests are exchanged on
  /// its own thread (`ExchangeThread.mayBlockCaller`) and, signed out, its queries sent without
  /// a task of their own (`send`): a signal cancels `body`'s task, which closes the connection
  /// at once. Standard output and `\o`'s file stop at once too, even a write waiting on a slow
  /// reader (what was written stays; ``stopOutputs(signal:)``): the statement's remaining rows are
  /// not printed (`defer` statements print again). Standard error then writes only what its
  /// reader takes at once (``OutputWriter/hurry()``): `interrupted at ...` never waits on a
  /// reader that stalled (one pipe for both, `2>&1`), and is dropped then (the exit code says it).
  public func stoppingOnSignals(_ body: @escaping @Sendable () async -> ExitCode) async
    -> ExitCode
  {
    let task = Task { await ExchangeThread.$mayBlockCaller.withValue(true) { await body() } }
    return await signals.watch(onSignal: { [self] signal in
      interrupt(signal)
      stopOutputs(signal: signal)
      // Standard error too may have no reader: what snm says now goes out if it can at once.
      baseErrors.hurry()
      task.cancel()
    }) {
      await task.value
    }
  }

  /// The writers of results a signal stops: standard output, and `\o`'s file when there is one
  /// (a FIFO's reader may be as slow as a pipe's).
  private var resultWriters: [OutputWriter] {
    guard let file = state.withLock({ $0.resultsFile?.writer }) else { return [baseOutput] }
    return [baseOutput, file]
  }

  /// Stops standard output and `\o`'s file for `signal`, a write under way in either included
  /// (``OutputWriter/stopWriting(signal:)``). Never from a thread writing to them.
  func stopOutputs(signal: Int32) {
    for writer in resultWriters { writer.stopWriting(signal: signal) }
  }

  /// Writes to standard output and `\o`'s file again (``OutputWriter/resumeWriting()``): the
  /// signal that stopped either, and whether text was lost from either; nil when neither was
  /// stopped.
  func resumeOutputs() -> (signal: Int32, cut: Bool)? {
    var stopped: (signal: Int32, cut: Bool)?
    for writer in resultWriters {
      guard let stop = writer.resumeWriting() else { continue }
      stopped = (stopped?.signal ?? stop.signal, (stopped?.cut ?? false) || stop.cut)
    }
    return stopped
  }

  /// The signal that stopped standard output or `\o`'s file, nil while both write.
  var outputsStoppedBy: Int32? {
    resultWriters.lazy.compactMap(\.stoppedBy).first
  }
}
