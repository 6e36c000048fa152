import Foundation
import SNMNetwork
import SNMSupabase

extension Shell {
  /// A shell with a session of its own: signed out at the start and kept in `sessionDirectory`,
  /// never in the user's stored session, so `snm test` files cannot see or spoil each other's.
  ///
  /// ```swift
  /// let shell = Shell.isolated(project: project, options: options, provider: provider,
  ///   sessionDirectory: "/tmp/snm-test-1", output: OutputWriter(), errors: OutputWriter())
  /// ```
  /// `signals` is where its SIGINT and SIGTERM come from (the test runner's).
  public static func isolated(
    project: ProjectSelection, options: ShellOptions, provider: SNMNetworkProvider,
    sessionDirectory: String, output: OutputWriter, errors: OutputWriter,
    signals: InterruptSignals = .shared
  ) -> Shell {
    let auth = SupabaseAuthManager(config: project.supabaseConfig, provider: provider)
    let sessions = SessionManager(
      project: project.url.absoluteString, store: FileSessionStore(directory: sessionDirectory),
      auth: auth,
      warn: { message in
        errors.write("snm: warning: \(message)\n")
        errors.flush()
      })
    return Shell(
      project: project, options: options, output: output, errors: errors, sessions: sessions,
      auth: auth, provider: provider, signals: signals)
  }

  /// Runs `body` (the script files, `-c`, standard input) so that SIGINT or SIGTERM stops it at
  /// the statement running, which it names: `snm: interrupted at a.snm:4:1: rpc sleep_for ...`.
  /// Returns 130 (SIGINT) or 143 (SIGTERM) then.
  public func stoppingOnSignals(_ body: @escaping @Sendable () async -> ExitCode) async
    -> ExitCode
  {
    let task = Task { await body() }
    return await signals.watch(onSignal: { [self] signal in
      interrupt(signal)
      task.cancel()
    }) {
      await task.value
    }
  }

  /// Runs script files in order with the same variables and session, each one checked (with the
  /// files it runs) before anything is sent; a failed file stops the rest unless `on_error` is
  /// `continue`.
  public func run(files: [String]) async -> ExitCode {
    for file in files {
      let code = await run(file: file)
      if code == .interrupted || code == .terminated { return code }
      if code != .success && currentSettings.onError == .stop { return code }
    }
    return state.withLock { $0.failure ?? .success }
  }

  /// What the scripts run so far left: failures, statements run, expectations that held.
  public var scriptSummary: (failures: [ScriptFailure], statements: Int, expectations: Int) {
    script.withLock { ($0.failures, $0.statements, $0.expectations) }
  }
}
