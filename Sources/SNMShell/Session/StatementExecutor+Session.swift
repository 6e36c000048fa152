import Foundation
import SNMNetwork
import SNMSupabase
import SNMWire

extension StatementExecutor {
  /// Makes the executor for `project` with `SessionManager.shared` pointed at it (the snm
  /// binary's way in; tests build `StatementExecutor` with their own `SessionManager`).
  ///
  /// ```swift
  /// let executor = await StatementExecutor.connected(project: project, options: options)
  /// ```
  public static func connected(project: ProjectSelection, options: ShellOptions) async
    -> StatementExecutor
  {
    let provider = SNMNetworkProvider(
      configuration: options.networkConfiguration(key: project.key))
    let auth = SupabaseAuthManager(config: project.supabaseConfig, provider: provider)
    await SessionManager.shared.configure(project: project.url.absoluteString, auth: auth)
    return StatementExecutor(project: project, options: options, auth: auth, provider: provider)
  }

  /// Runs one session statement. Failures print one line to standard error (never a token or
  /// password) and fail with exit code 3.
  func runSession(_ command: SessionCommand) async -> StatementResult {
    switch command {
    case .loginAnonymously:
      return await signIn("login") { try await self.auth.signInAnonymously() }
    case .login(let email, let password):
      guard let password = password ?? askPassword(for: email) else { return noPassword("login") }
      secretValues.register(password)
      return await signIn("login") { try await self.auth.signIn(email: email, password: password) }
    case .signup(let email, let password, let data):
      guard let password = password ?? askPassword(for: email) else { return noPassword("signup") }
      secretValues.register(password)
      guard let data else {
        return await signIn("signup") {
          try await self.auth.signUp(email: email, password: password)
        }
      }
      return await signIn("signup") {
        try await self.authManager.signUp(email: email, password: password, data: data)
      }
    case .refresh:
      return await refreshSession()
    case .check:
      return await checkSession()
    case .token:
      return await printAccessToken()
    case .show:
      let session = await sessions.currentSession
      say(
        SessionReport(session: session, now: Date(), refreshed: false, keyRole: project.keyRole)
          .render(
            currentSettings.format))
      return .succeeded(nil)
    case .logout(let scope):
      return await logout(scope)
    }
  }

  /// `$session.user_id`, `$session.role`, `$session.email`, `$session.is_anonymous` for scripts:
  /// the role of the project's key (`anon`, `service_role`) and a null user id when signed out.
  public func sessionValues() async -> JSONValue {
    guard let session = await sessions.currentSession else {
      return [
        "user_id": .null, "role": .string(project.keyRole), "email": .null, "is_anonymous": false,
      ]
    }
    let report = SessionReport(
      session: session, now: Date(), refreshed: false, keyRole: project.keyRole)
    return [
      "user_id": .string(session.user.id.uuidString.lowercased()), "role": .string(report.role),
      "email": session.user.email.flatMap { $0.isEmpty ? nil : JSONValue.string($0) } ?? .null,
      "is_anonymous": .bool(session.user.isAnonymous),
      "aal": .string(session.claims.aal ?? "aal1"),
    ]
  }

  /// Refreshes the name the prompt shows from the session (no network).
  func updateSignedInName() async {
    let name = await sessions.currentSession.map { Self.promptName($0.user) }
    state.withLock { $0.signedIn = name }
  }

  private func signIn(
    _ verb: String, _ call: @escaping @Sendable () async throws -> SupabaseSession
  ) async -> StatementResult {
    let session: SupabaseSession
    switch await sendCancellable(refreshing: false, call) {
    case .done(let signedIn):
      session = signedIn
    case .failed(AuthResponseError.missingSession):
      say(ServerErrorReport.signedUpUnconfirmed)
      return .succeeded(nil)
    case .failed(let error):
      var message = "\(verb) failed: \(Self.describe(error))"
      if let refused = error as? SupabaseAuthError,
        let advice = ServerErrorReport.signInAdvice(for: refused)
      {
        message += "\n  advice: " + advice
      }
      message += RateLimitAdvice.line(for: error, local: project.isLocal) ?? ""
      return authFailure(message, outcome: .failed(error), headline: FailureHeadline.of(error))
    case .interrupted(let signal):
      return .interrupted(signal)
    }
    await sessions.saveSession(for: session)
    state.withLock { $0.signedIn = Self.promptName(session.user) }
    let who =
      session.user.isAnonymous
      ? "anonymously as \(session.user.id.uuidString.lowercased())"
      : "as \(session.user.displayName)"
    say((verb == "signup" ? "signed up and signed in " : "signed in ") + who)
    return .succeeded(nil)
  }

  /// `session refresh`: spends the refresh token for a new session now.
  private func refreshSession() async -> StatementResult {
    let refreshed = await sendCancellable(refreshing: false) { [sessions] in
      await sessions.refreshNow()
    }
    switch refreshed {
    case .done(.success(let session)):
      state.withLock { $0.signedIn = Self.promptName(session.user) }
      say(
        SessionReport(session: session, now: Date(), refreshed: true, keyRole: project.keyRole)
          .checkLine(currentSettings.format))
      return .succeeded(nil)
    case .done(.failure(.signedOut)):
      return authFailure("not signed in; use 'login' or 'login email ...'")
    case .done(.failure(let error)):
      state.withLock { $0.signedIn = nil }
      return authFailure(error.description, headline: FailureHeadline.of(error))
    case .failed(let error): return authFailure(Self.describe(error))
    case .interrupted(let signal): return .interrupted(signal)
    }
  }

  private func checkSession() async -> StatementResult {
    let before = await sessions.currentSession?.accessToken
    let checked: Result<SupabaseSession, SupabaseSessionError>
    // A refresh runs in a task of the session's own: a signal stops the wait, never the refresh.
    let check = await sendCancellable(refreshing: false) { [sessions] in
      await sessions.checkSession()
    }
    switch check {
    case .done(let result): checked = result
    case .failed(let error): return authFailure(Self.describe(error))
    case .interrupted(let signal): return .interrupted(signal)
    }
    switch checked {
    case .success(let session):
      let refreshed = before != session.accessToken
      say(
        SessionReport(
          session: session, now: Date(), refreshed: refreshed, keyRole: project.keyRole
        ).checkLine(
          currentSettings.format))
      return .succeeded(nil)
    case .failure(let error):
      if case .signedOut = error {
        return authFailure("not signed in; use 'login' or 'login email ...'")
      }
      state.withLock { $0.signedIn = nil }
      return authFailure(error.description, headline: FailureHeadline.of(error))
    }
  }

  /// `session token`: the access token (refreshed first when near its end) alone on a line of
  /// standard output, for curl or another client; only when asked, and masked wherever snm itself
  /// reports the run (script failures, `snm test` output and reports).
  private func printAccessToken() async -> StatementResult {
    let check = await sendCancellable(refreshing: false) { [sessions] in
      await sessions.checkSession()
    }
    switch check {
    case .done(.success(let session)):
      secretValues.register(session.accessToken)
      output.write(session.accessToken + "\n")
      output.flush()
      return .succeeded(nil)
    case .done(.failure(.signedOut)):
      return authFailure(
        "not signed in: `session token` prints a signed-in user's token; `login` first")
    case .done(.failure(let error)):
      state.withLock { $0.signedIn = nil }
      return authFailure(error.description, headline: FailureHeadline.of(error))
    case .failed(let error): return authFailure(Self.describe(error))
    case .interrupted(let signal): return .interrupted(signal)
    }
  }

  private func logout(_ scope: SignOutScope) async -> StatementResult {
    guard await sessions.currentSession != nil else {
      say("not signed in")
      return .succeeded(nil)
    }
    defer { if scope != .others { state.withLock { $0.signedIn = nil } } }
    let signOut = await sendCancellable(refreshing: false) { [sessions] in
      try await sessions.signOut(scope: scope)
    }
    switch signOut {
    case .done where scope == .others: say("signed out every other session; still signed in here")
    case .done where scope == .global: say("signed out everywhere")
    case .done: say("signed out")
    case .failed(let error):
      say("signed out here; the server was not told: \(Self.describe(error))")
    case .interrupted(let signal): return .interrupted(signal)
    }
    return .succeeded(nil)
  }

  /// The prompt's name for `user`: the email's local part (`kim`), else `anonymous`.
  static func promptName(_ user: SupabaseUser) -> String {
    if let email = user.email, let at = email.firstIndex(of: "@"), at > email.startIndex {
      return String(email[..<at])
    }
    return user.displayName
  }

  private func askPassword(for email: String) -> String? {
    PasswordReader.read(prompt: "password for \(email): ")
  }

  private func noPassword(_ verb: String) -> StatementResult {
    authFailure(
      "\(verb) needs a password: type it at a terminal, or write `password '...'` or "
        + "`password $env.NAME` in scripts")
  }

  func authFailure(
    _ message: String, outcome: StatementOutcome? = nil, headline: String? = nil
  ) -> StatementResult {
    .failed(failure(.unreachable, message, outcome: outcome, headline: headline))
  }

  /// Prints `text` (a line) unless `--quiet`.
  /// Prints a line about the session; what the server said in it (a user's e-mail, a message) has
  /// its control characters escaped (``VisibleText``).
  func say(_ text: String) {
    guard !currentSettings.quiet else { return }
    let text = VisibleText.escaped(text, keepingNewlines: true)
    output.write(text.hasSuffix("\n") ? text : text + "\n")
    output.flush()
  }

  static func describe(_ error: any Error) -> String {
    switch error {
    case let failure as SupabaseAuthError: failure.description
    case let failure as SNMNetworkError: failure.description
    case let failure as AuthResponseError: failure.description
    case let failure as SupabaseSessionError: failure.description
    default: "\(error)"
    }
  }
}
