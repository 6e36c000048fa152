import Foundation
import SNMNetwork
import SNMSupabase
import SNMWire

/// The session statements (spec §3): `login`, `signup`, `session check|show|refresh|token`,
/// `logout`. A value for one statement: it reads the environment it is handed, prints to the
/// output it is handed, and returns its result and who is signed in after it. Failures print one
/// line to standard error (never a token or password) and fail with exit code 3.
///
/// ```swift
/// let outcome = await SessionStatements(environment: environment, output: output).run(.show)
/// ```
struct SessionStatements: StatementFamily {
  /// What running it gave and changed.
  struct Outcome: Sendable {
    var result: StatementResult
    /// Who is signed in from now on; nil when unchanged.
    var signedIn: SignedInChange?

    init(_ result: StatementResult, signedIn: SignedInChange? = nil) {
      self.result = result
      self.signedIn = signedIn
    }
  }

  let environment: StatementEnvironment
  let output: StatementOutput

  var sessions: SessionManager { environment.sessions }
  var keyRole: String { environment.project.keyRole }

  /// Runs one session statement.
  func run(_ command: SessionCommand) async -> Outcome {
    let auth = environment.connection.auth
    switch command {
    case .loginAnonymously:
      return await signIn("login") { try await auth.signInAnonymously() }
    case .login(let email, let password):
      let asked = password.map(PasswordReader.Answer.typed) ?? askPassword(for: email)
      guard case .typed(let password) = asked else { return noPassword("login", asked) }
      environment.secrets.register(password)
      return await signIn("login") { try await auth.signIn(email: email, password: password) }
    case .signup(let email, let password, let data):
      let asked = password.map(PasswordReader.Answer.typed) ?? askPassword(for: email)
      guard case .typed(let password) = asked else { return noPassword("signup", asked) }
      environment.secrets.register(password)
      guard let data else {
        return await signIn("signup") { try await auth.signUp(email: email, password: password) }
      }
      let manager = environment.authManager
      return await signIn("signup") {
        try await manager.signUp(email: email, password: password, data: data)
      }
    case .refresh:
      return await refreshSession()
    case .check:
      return await checkSession()
    case .token:
      return await printAccessToken()
    case .show:
      let session = await sessions.currentSession
      var report = SessionReport(session: session, now: Date(), refreshed: false, keyRole: keyRole)
      report.ended = await endedOnTheServer()
      report.stopped = await sessions.storedSessionStopsRequests
      sayReport(report.render(settings.format))
      return Outcome(.succeeded(nil))
    case .logout(let scope):
      return await logout(scope)
    }
  }

  /// The prompt's name for `user`: the email's local part (`kim`), else `anonymous`.
  static func promptName(_ user: SupabaseUser) -> String {
    if let email = user.email, let at = email.firstIndex(of: "@"), at > email.startIndex {
      return String(email[..<at])
    }
    return user.displayName
  }

  private func signIn(
    _ verb: String, _ call: @escaping @Sendable () async throws -> SupabaseSession
  ) async -> Outcome {
    let session: SupabaseSession
    switch await environment.sender.cancellable(refreshing: false, call) {
    case .done(let signedIn):
      session = signedIn
    case .failed(AuthResponseError.missingSession):
      say(ServerErrorReport.signedUpUnconfirmed)
      return Outcome(.succeeded(nil))
    case .failed(let error):
      var message = "\(verb) failed: \(Self.describe(error))"
      if let refused = error as? SupabaseAuthError,
        let advice = ServerErrorReport.signInAdvice(for: refused)
      {
        message += "\n  advice: " + advice
      }
      message += RateLimitAdvice.line(for: error, local: environment.project.isLocal) ?? ""
      if let advice = UnfoundProjectHost.advice(for: error, project: environment.project) {
        message += "\nsnm: " + advice
      }
      return authFailure(message, outcome: .failed(error), headline: FailureHeadline.of(error))
    case .interrupted(let signal):
      return Outcome(.interrupted(signal))
    }
    await sessions.saveSession(for: session)
    let who =
      session.user.isAnonymous
      ? "anonymously as \(session.user.id.uuidString.lowercased())"
      : "as \(session.user.displayName)"
    say((verb == "signup" ? "signed up and signed in " : "signed in ") + who)
    return Outcome(.succeeded(nil), signedIn: .as(Self.promptName(session.user)))
  }

  /// `session refresh`: spends the refresh token for a new session now.
  private func refreshSession() async -> Outcome {
    let refreshed = await environment.sender.cancellable(refreshing: false) { [sessions] in
      await sessions.refreshNow()
    }
    switch refreshed {
    case .done(.success(let session)):
      sayReport(
        SessionReport(session: session, now: Date(), refreshed: true, keyRole: keyRole)
          .checkLine(settings.format))
      return Outcome(.succeeded(nil), signedIn: .as(Self.promptName(session.user)))
    case .done(.failure(.signedOut)):
      return await notSignedIn("not signed in; use 'login' or 'login email ...'")
    case .done(.failure(let error)):
      return sessionLost(error)
    case .failed(let error): return authFailure(Self.describe(error))
    case .interrupted(let signal): return Outcome(.interrupted(signal))
    }
  }

  private func checkSession() async -> Outcome {
    let before = await sessions.currentSession?.accessToken
    let checked: Result<SupabaseSession, SupabaseSessionError>
    // A refresh runs in a task of the session's own: a signal stops the wait, never the refresh.
    let check = await environment.sender.cancellable(refreshing: false) { [sessions] in
      await sessions.checkSession()
    }
    switch check {
    case .done(let result): checked = result
    case .failed(let error): return authFailure(Self.describe(error))
    case .interrupted(let signal): return Outcome(.interrupted(signal))
    }
    switch checked {
    case .success(let session):
      let refreshed = before != session.accessToken
      sayReport(
        SessionReport(session: session, now: Date(), refreshed: refreshed, keyRole: keyRole)
          .checkLine(settings.format))
      return Outcome(.succeeded(nil))
    case .failure(let error):
      if case .signedOut = error {
        return await notSignedIn("not signed in; use 'login' or 'login email ...'")
      }
      return sessionLost(error)
    }
  }

  /// A `session show` or `check` report: JSON in json and ndjson (``emitJSON(_:)``: the
  /// characters a terminal hides as JSON's escapes there), else lines (``say(_:)``).
  private func sayReport(_ text: String) {
    if settings.format == .json || settings.format == .ndjson {
      emitJSON(text)
    } else {
      say(text)
    }
  }

  /// `session token`: the access token (refreshed first when near its end) alone on a line of
  /// standard output, for curl or another client; only when asked, and masked wherever snm itself
  /// reports the run (script failures, `snm test` output and reports).
  private func printAccessToken() async -> Outcome {
    let check = await environment.sender.cancellable(refreshing: false) { [sessions] in
      await sessions.checkSession()
    }
    switch check {
    case .done(.success(let session)):
      environment.secrets.register(session.accessToken)
      output.results.write(session.accessToken + "\n")
      output.results.flush()
      return Outcome(.succeeded(nil))
    case .done(.failure(.signedOut)):
      return await notSignedIn(
        "not signed in: `session token` prints a signed-in user's token; `login` first")
    case .done(.failure(let error)):
      return sessionLost(error)
    case .failed(let error): return authFailure(Self.describe(error))
    case .interrupted(let signal): return Outcome(.interrupted(signal))
    }
  }

  private func logout(_ scope: SignOutScope) async -> Outcome {
    guard await sessions.currentSession != nil else {
      if scope != .others { await sessions.goOnSignedOut() }
      say("not signed in")
      return Outcome(.succeeded(nil))
    }
    let signedIn: SignedInChange? = scope != .others ? .out : nil
    let signOut = await environment.sender.cancellable(refreshing: false) { [sessions] in
      try await sessions.signOut(scope: scope)
    }
    switch signOut {
    case .done where scope == .others: say("signed out every other session; still signed in here")
    case .done where scope == .global: say("signed out everywhere")
    case .done: say("signed out")
    case .failed(let error):
      say("signed out here; the server was not told: \(Self.describe(error))")
    case .interrupted(let signal): return Outcome(.interrupted(signal), signedIn: signedIn)
    }
    return Outcome(.succeeded(nil), signedIn: signedIn)
  }

  /// The e-mail may be a server's (`login email $user.email`) or the environment's: shown
  /// escaped, so that it cannot drive the terminal it is written to.
  private func askPassword(for email: String) -> PasswordReader.Answer {
    PasswordReader.read(prompt: "password for \(VisibleText.escaped(email)): ")
  }

  /// Ctrl-C at the prompt cancels the statement (exit 130 in a script); Ctrl-D on an empty line
  /// typed none; else no password could be asked for.
  private func noPassword(_ verb: String, _ asked: PasswordReader.Answer) -> Outcome {
    if asked == .cancelled { return Outcome(.interrupted(SIGINT)) }
    if asked == .ended { return authFailure("\(verb) needs a password: none was typed (Ctrl-D)") }
    if asked == .background {
      return authFailure(
        "\(verb) needs a password, and snm runs in the background of its terminal: run it in "
          + "the foreground to type it, or write `password $env.NAME`")
    }
    return authFailure(
      "\(verb) needs a password, and there is no terminal to ask for it at (snm asks at its "
        + "controlling terminal, /dev/tty, and never reads one from standard input): write "
        + "`password $env.NAME` (or `password '...'`)")
  }

  /// `session check`, `refresh` or `token` signed out: the statement fails with `usual`, or,
  /// when the stored session could not be used where requests fail in its place (a script), or
  /// the server ended the session kept here (``endedOnTheServer()``), with that.
  private func notSignedIn(_ usual: String) async -> Outcome {
    var problem = await sessions.storedSessionStopsRequests
    if problem == nil { problem = await endedOnTheServer() }
    guard let problem else { return authFailure(usual) }
    let failure = SupabaseSessionError.storedUnusable(problem)
    return authFailure(failure.description, headline: FailureHeadline.of(failure))
  }

  /// The mark that the server ended the session kept for this project, until a sign-in or a
  /// `logout` replaces it; nil when there is none.
  private func endedOnTheServer() async -> SessionStoreError? {
    let problem = await sessions.storedSessionProblem
    guard case .endedByServer? = problem else { return nil }
    return problem
  }

  /// The session could not be refreshed or checked: it is gone, and the statement fails.
  private func sessionLost(_ error: SupabaseSessionError) -> Outcome {
    var failed = authFailure(error.description, headline: FailureHeadline.of(error))
    failed.signedIn = .out
    return failed
  }

  private func authFailure(
    _ message: String, outcome: StatementOutcome? = nil, headline: String? = nil
  ) -> Outcome {
    Outcome(.failed(failure(.unreachable, message, outcome: outcome, headline: headline)))
  }
}
