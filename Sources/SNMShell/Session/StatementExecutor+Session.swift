import Foundation
import SNMNetwork
import SNMQuery
import SNMSupabase
import SNMWire

extension StatementExecutor {
  /// Makes the executor for `project` with `SessionManager.shared` pointed at it (the snm
  /// binary's way in; tests build `StatementExecutor` with their own `SessionManager`).
  ///
  /// ```swift
  /// let executor = await StatementExecutor.connected(project: project, options: options)
  /// ```
  /// `interactive` (the prompt): a stored session that cannot be used is a warning and the
  /// shell goes on signed out, which the prompt shows. Otherwise (scripts, `-c`, pipes, `listen`)
  /// a request that would go signed out in its place fails, exit code 3.
  public static func connected(
    project: ProjectSelection, options: ShellOptions, interactive: Bool = false
  ) async -> StatementExecutor {
    let provider = SNMNetworkProvider(
      configuration: options.networkConfiguration(key: project.key))
    let auth = SupabaseAuthManager(config: project.supabaseConfig, provider: provider)
    await SessionManager.shared.configure(
      project: project.url.absoluteString, keyMarks: project.sessionKeyMarks, auth: auth,
      requiresStored: !interactive)
    return StatementExecutor(project: project, options: options, auth: auth, provider: provider)
  }

  /// Runs one session statement (Session/SessionStatements) and keeps who is signed in.
  func runSession(_ command: SessionCommand, context: StatementContext = StatementContext()) async
    -> StatementResult
  {
    let (environment, output) = await surroundings(context.routing)
    let family = SessionStatements(environment: environment, output: output)
    return keep(await family.run(command))
  }

  /// Runs a parsed session statement; with `source`, its e-mail, password and data filled in
  /// from the script's variables first.
  func runSession(
    _ statement: SessionStatement, in source: Source? = nil,
    context: StatementContext = StatementContext()
  ) async -> StatementResult {
    let (environment, output) = await surroundings(context.routing)
    let family = SessionStatements(environment: environment, output: output)
    guard let source else { return keep(await family.run(statement)) }
    do {
      let filled = try await family.fillingVariables(in: statement, source: source)
      return keep(await family.run(filled))
    } catch {
      return .failed(error)
    }
  }

  /// Keeps who a session statement left signed in; its result.
  func keep(_ outcome: SessionStatements.Outcome) -> StatementResult {
    keep(outcome.signedIn)
    return outcome.result
  }

  /// Keeps who is signed in (nil: unchanged).
  func keep(_ change: SignedInChange?) {
    switch change {
    case .as(let name): state.withLock { $0.signedIn = name }
    case .out: state.withLock { $0.signedIn = nil }
    case nil: break
    }
  }

  /// `$session.user_id`, `$session.role`, `$session.email`, `$session.is_anonymous` for scripts:
  /// the role of the project's key (`anon`, `service_role`) and a null user id when signed out.
  public func sessionValues() async -> JSONValue {
    SessionReport.values(of: await sessions.currentSession, keyRole: project.keyRole)
  }

  /// Refreshes the name the prompt shows from the session (no network).
  func updateSignedInName() async {
    let name = await sessions.currentSession.map { SessionStatements.promptName($0.user) }
    state.withLock { $0.signedIn = name }
  }
}
