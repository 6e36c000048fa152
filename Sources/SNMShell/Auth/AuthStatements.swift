import Foundation
import SNMCrypto
import SNMNetwork
import SNMQuery
import SNMSupabase
import SNMWire

/// The account, MFA, admin and inbox statements (`user ...`, `verify otp`, `mfa ...`,
/// `admin ...`, `inbox`; docs/auth.md). A value for one statement: it compiles the statement to an
/// `AuthCall`, sends its requests through the managers (Ctrl-C cancels them), prints what they
/// gave and returns it; a call that signs in says so in its answer for the session to keep.
///
/// ```swift
/// let family = AuthStatements(environment: environment, output: output)
/// let (result, signedIn) = await family.run(statement, in: source)
/// ```
struct AuthStatements: StatementFamily {
  let environment: StatementEnvironment
  let output: StatementOutput

  /// What an auth statement's call gave: the value `let` binds, and what to print.
  struct Answer: Sendable {
    var value: JSONValue
    /// Lines to print (a confirmation); nil: print ``value`` as a result.
    var message: String?
    /// The view of ``value`` tables print (the fields people read; JSON prints ``value`` whole).
    var view: JSONValue?
    /// Who is signed in after it (a verified code, an MFA answer); nil: unchanged.
    var signedIn: SignedInChange?
  }

  /// Runs an account, MFA, admin or inbox statement and prints what it gave; who is signed in
  /// after it, when that changed.
  func run(_ statement: Statement, in source: Source) async
    -> (result: StatementResult, signedIn: SignedInChange?)
  {
    switch await perform(statement, in: source) {
    case .stopped(let result):
      return (result, nil)
    case .answered(let answer):
      let format = settings.format
      if let message = answer.message {
        if format == .json || format == .ndjson, !answer.value.isNull {
          await render(answer.view ?? answer.value)
        } else {
          say(message)
        }
      } else if format == .json || format == .ndjson {
        await render(answer.value)
      } else if let record = (answer.view ?? answer.value).objectValue, format == .table {
        say(Self.recordLines(record))
      } else {
        await render(answer.view ?? answer.value)
      }
      return (.succeeded(.answered(value: answer.value, status: 200)), answer.signedIn)
    }
  }

  /// How an auth statement ended: its answer, or the result that stopped it.
  enum Outcome: Sendable {
    case answered(Answer)
    case stopped(StatementResult)
  }

  /// Compiles and sends an auth statement (Ctrl-C cancels it); a failure is printed.
  func perform(_ statement: Statement, in source: Source) async -> Outcome {
    let call: AuthCall
    do {
      call = try AuthCompiler(scope: environment.variables).compile(statement)
    } catch {
      return .stopped(report(error, in: source))
    }
    for secret in call.secrets { environment.secrets.register(secret) }
    var admin: SupabaseAdminManager?
    if call.usesServiceKey {
      guard let manager = environment.adminManager else { return .stopped(noServiceKey()) }
      admin = manager
    }
    var token = ""
    if call.needsSession {
      switch await environment.sender.cancellable(
        refreshing: false,
        { [sessions = environment.sessions] in try await sessions.requestToken() })
      {
      case .done(let held?): token = held
      case .done(nil):
        return .stopped(fail(.unreachable, "not signed in; use 'login email ...' first"))
      case .failed(let error):
        let headline = FailureHeadline.of(error)
        return .stopped(.failed(failure(.unreachable, Self.describe(error), headline: headline)))
      case .interrupted(let signal): return .stopped(.interrupted(signal))
      }
    }
    // `login provider` waits for a browser and says so itself.
    let spinner = Spinner.start(
      label: "waiting for \(environment.project.name)",
      enabled: environment.interactive && !call.waitsForBrowser)
    let outcome = await environment.sender.cancellable(refreshing: false) { [self, token, admin] in
      try await perform(call, token: token, admin: admin)
    }
    spinner.stop()
    switch outcome {
    case .done(let answer):
      return .answered(await settle(answer, of: call))
    case .failed(let error):
      if case .userUpdate(let attributes) = call, attributes.nonce == nil,
        let refusal = error as? SupabaseAuthError, refusal.code == .reauthenticationNeeded
      {
        return await reauthenticating(attributes, token: token, refusal: refusal)
      }
      if call.signsIn { return .stopped(.failed(loginFailure(error))) }
      return .stopped(.failed(authCallFailure(error, service: call.usesServiceKey)))
    case .interrupted(let signal):
      return .stopped(.interrupted(signal))
    }
  }

  /// A `login <provider> ...` that did not sign in: exit code 3, as for `login email`; a
  /// refusal is headed "sign-in failed", an unreachable project as for any statement.
  func loginFailure(_ error: any Error) -> StatementFailure {
    let advice =
      RateLimitAdvice.line(for: error, local: environment.project.isLocal)
      ?? UnfoundProjectHost.advice(for: error, project: environment.project).map { "\nsnm: " + $0 }
      ?? ""
    return failure(
      .unreachable, "login failed: \(Self.describe(error))" + advice, outcome: .failed(error),
      headline: FailureHeadline.of(error) ?? (error is SNMNetworkError ? nil : "sign-in failed"))
  }

  /// After the call: a new session is kept (a verified code, an MFA answer), and what the answer
  /// holds that is secret (a mailed code, a TOTP secret) joins what reports never print.
  func settle(_ answer: Answer, of call: AuthCall) async -> Answer {
    for key in ["otp", "token_hash", "email_otp", "hashed_token", "secret"] {
      if let secret = answer.value[key]?.stringValue { environment.secrets.register(secret) }
    }
    return answer
  }

  /// The call's requests, through the managers.
  func perform(_ call: AuthCall, token: String, admin: SupabaseAdminManager?) async throws
    -> Answer
  {
    let auth = environment.authManager
    switch call {
    case .userShow:
      let user = try await auth.userJSON(accessToken: token)
      return Answer(value: user, view: Self.userView(user))
    case .userUpdate(let attributes):
      let user = try await auth.updateUser(accessToken: token, attributes: attributes)
      return Answer(value: user, message: Self.updateMessage(user, attributes))
    case .reauthenticate:
      try await auth.reauthenticate(accessToken: token)
      return Answer(
        value: .null,
        message:
          "a reauthentication code was sent; use it as 'user update password ... nonce '...''")
    case .passwordReset(let email):
      try await auth.resetPassword(email: email)
      return Answer(value: .null, message: "a password-reset mail was sent to \(email)")
    case .sendOTP(let recipient, let magicLink):
      try await auth.sendOTP(to: recipient, createUser: true)
      let what: String
      switch recipient {
      case .phone: what = "a sign-in code"
      case .email:
        what = magicLink ? "a magic link (and its code)" : "a sign-in code (and a magic link)"
      }
      return Answer(
        value: .null,
        message:
          "\(what) was sent to \(recipient.address); then 'verify otp \(recipient.member) "
          + "'\(recipient.address)' token '...''")
    case .verifyOTP(let recipient, let code, let type):
      let outcome = try await auth.verifyOTP(to: recipient, token: code, type: type)
      guard case .session(let session) = outcome else { return HalfConfirmed.of(recipient, type) }
      return await signedIn(session, message: "signed in as \(session.user.displayName)")
    case .resend(let type, let recipient):
      try await auth.resend(type: type, to: recipient)
      return Answer(
        value: .null,
        message: "the \(type) \(recipient.what) was sent again to \(recipient.address)")
    case .mfaFactors:
      let factors = try await auth.factors(accessToken: token)
      return Answer(value: .array(factors), view: .array(factors.map(Self.factorView)))
    case .mfaEnroll(let name, let issuer):
      let factor = try await auth.enrollTOTP(accessToken: token, friendlyName: name, issuer: issuer)
      return enrolled(factor)
    case .mfaVerify(let factor, let answer):
      let id = try await factorID(factor, token: token)
      let code: String
      switch answer {
      case .code(let written): code = written
      case .secret(let secret): code = try TOTPCode.now(secret: secret)
      }
      environment.secrets.register(code)
      let challenge = try await auth.challengeFactor(accessToken: token, factorID: id)
      let session = try await auth.verifyFactor(
        accessToken: token, factorID: id, challengeID: challenge, code: code)
      let level = session.claims.aal ?? "aal2"
      return await signedIn(session, message: "factor verified; the session is now \(level)")
    case .mfaUnenroll(let factor):
      try await auth.unenrollFactor(accessToken: token, factorID: factor)
      return Answer(value: ["id": .string(factor)], message: "factor \(factor) removed")
    case .signInWithIDToken(let credentials):
      let session = try await auth.signInWithIdToken(credentials: credentials)
      return await signedIn(
        session, message: "signed in as \(session.user.displayName) with \(credentials.provider)")
    case .signInWithProvider(let provider):
      let session = try await ProviderSignIn(environment: environment, output: output).run(provider)
      return await signedIn(
        session, message: "signed in as \(session.user.displayName) with \(provider)")
    default:
      guard let admin else { throw AuthResponseError.malformed("no service key") }
      return try await performAdmin(call, admin: admin)
    }
  }

  /// A session an auth call gave: kept as the session, bound as the user.
  func signedIn(_ session: SupabaseSession, message: String) async -> Answer {
    await environment.sessions.saveSession(for: session)
    let values = SessionReport.values(
      of: await environment.sessions.currentSession, keyRole: environment.project.keyRole)
    return Answer(
      value: values, message: message, signedIn: .as(SessionStatements.promptName(session.user)))
  }

  /// The factor `mfa verify` answers: the one given, else the user's only TOTP factor.
  func factorID(_ given: String?, token: String) async throws -> String {
    if let given { return given }
    let factors = try await environment.authManager.factors(accessToken: token).filter {
      $0["factor_type"]?.stringValue == "totp"
    }
    let ids = factors.compactMap { $0["id"]?.stringValue }
    guard ids.count == 1, let id = ids.first else {
      throw AuthStatementError.factorNeeded(count: ids.count)
    }
    return id
  }

  /// `mfa enroll totp`: the factor, its secret and `otpauth://` URI. At a terminal they print
  /// (the secret is for the authenticator app); elsewhere the secret prints masked, and
  /// `let f = mfa enroll totp` binds it as `$f.secret`.
  func enrolled(_ factor: JSONValue) -> Answer {
    let totp = factor["totp"]
    var value: JSONObject = [:]
    for key in ["id", "type", "friendly_name"] {
      if let member = factor[key] { value.append(key, member) }
    }
    value.append("secret", totp?["secret"] ?? .null)
    value.append("uri", totp?["uri"] ?? .null)
    let secret = totp?["secret"]?.stringValue
    if let secret { environment.secrets.register(secret) }
    let visible = output.results.isTerminal
    var lines = ["enrolled TOTP factor \(factor["id"]?.stringValue ?? "?") (unverified)"]
    lines.append(
      "secret  "
        + (visible ? secret ?? "?" : "******** (bind it: let f = mfa enroll totp; $f.secret)"))
    if let uri = totp?["uri"]?.stringValue {
      lines.append("uri     " + (visible ? uri : "******** (holds the secret)"))
      // At a terminal, the URI as a QR code for the authenticator app to scan.
      if visible, let qr = QRCode(uri) { lines.append(TerminalQRCode.render(qr)) }
    }
    lines.append("then: mfa verify factor \(factor["id"]?.stringValue ?? "$id") code '123456'")
    var shown = value
    if !visible {
      shown.removeAll(named: "secret")
      shown.removeAll(named: "uri")
      shown.append("secret", "********")
      shown.append("uri", "********")
    }
    return Answer(
      value: .object(value), message: lines.joined(separator: "\n"), view: .object(shown))
  }

  /// `user update` at a terminal when the project asks for a nonce: asks for the mailed code and
  /// sends the change again; in scripts, says how.
  func reauthenticating(_ attributes: UserAttributes, token: String, refusal: SupabaseAuthError)
    async -> Outcome
  {
    guard environment.interactive else {
      let failure = failure(
        .server,
        refusal.description + "\nhelp: run 'user reauthenticate', read the code from the mail "
          + "(with the local project: let mail = inbox '...'), then "
          + "'user update password ... nonce $mail.otp'", outcome: .failed(refusal))
      return .stopped(.failed(failure))
    }
    let auth = environment.authManager
    switch await environment.sender.cancellable(
      refreshing: false, { try await auth.reauthenticate(accessToken: token) })
    {
    case .done: break
    case .failed(let error): return .stopped(.failed(authCallFailure(error, service: false)))
    case .interrupted(let signal): return .stopped(.interrupted(signal))
    }
    let asked = PasswordReader.read(prompt: "the project mailed a code; code: ")
    if asked == .cancelled { return .stopped(.interrupted(SIGINT)) }
    guard case .typed(let nonce) = asked, !nonce.isEmpty else {
      return .stopped(fail(.usage, "no code given; the password was not changed"))
    }
    environment.secrets.register(nonce)
    var changed = attributes
    changed.nonce = nonce
    let retried = changed
    switch await environment.sender.cancellable(
      refreshing: false,
      {
        try await auth.updateUser(accessToken: token, attributes: retried)
      })
    {
    case .done(let user):
      return .answered(Answer(value: user, message: Self.updateMessage(user, retried)))
    case .failed(let error): return .stopped(.failed(authCallFailure(error, service: false)))
    case .interrupted(let signal): return .stopped(.interrupted(signal))
    }
  }

  static func updateMessage(_ user: JSONValue, _ attributes: UserAttributes) -> String {
    var changed: [String] = []
    if attributes.data != nil || !attributes.other.isEmpty { changed.append("metadata") }
    if attributes.password != nil { changed.append("password") }
    if attributes.email != nil { changed.append("email") }
    var text = "updated the user's " + changed.joined(separator: " and ")
    if let pending = user["new_email"]?.stringValue, !pending.isEmpty {
      text += "; confirm \(pending) from the mail sent to it"
    }
    return text
  }

  /// Prints why an auth call failed; the kind gives the exit code: 1 for a refusal, 3 when the
  /// project cannot be reached, the session cannot be used, or the service key is refused.
  func authCallFailure(_ error: any Error, service: Bool) -> StatementFailure {
    let (kind, text): (StatementFailure.Kind, String)
    switch error {
    case let refusal as SupabaseAuthError where service && [401, 403].contains(refusal.status):
      return failure(
        .unreachable, "\(FailureHeadline.refusedServiceKey): \(refusal.description)",
        outcome: .failed(error), headline: FailureHeadline.refusedServiceKey)
    case let refusal as SupabaseAuthError:
      kind = refusal.status == 401 ? .unreachable : .server
      text =
        refusal.description
        + (RateLimitAdvice.line(for: refusal, local: environment.project.isLocal) ?? "")
    case let statement as AuthStatementError:
      (kind, text) = (.usage, statement.description)
    case is InboxLookupError:
      (kind, text) = (.server, "\(error)")
    case InboxError.notLocal, is TOTPCode.Failure:
      (kind, text) = (.usage, "\(error)")
    case SNMNetworkError.http(let failure) where failure.status == 404:
      (kind, text) = (.server, Self.describe(error))
    case is AuthResponseError:
      (kind, text) = (.server, Self.describe(error))
    default:
      (kind, text) = (.unreachable, Self.describe(error))
    }
    return failure(kind, text, outcome: .failed(error), headline: FailureHeadline.of(error))
  }

  /// One object as `name  value` lines, as `session show` prints: strings as they are, other
  /// values as compact JSON, null as `NULL`.
  static func recordLines(_ record: JSONObject) -> String {
    let width = record.keys.map(\.count).max() ?? 0
    return record.map { key, value in
      let text: String
      switch value {
      case .string(let string): text = string
      case .null: text = "NULL"
      default: text = value.serialized()
      }
      return key.padding(toLength: width + 2, withPad: " ", startingAt: 0) + text
    }.joined(separator: "\n")
  }

  /// The fields of a user that tables show.
  static func userView(_ user: JSONValue) -> JSONValue {
    var view = JSONObject()
    for key in [
      "id", "email", "phone", "role", "is_anonymous", "email_confirmed_at", "last_sign_in_at",
      "created_at", "user_metadata", "app_metadata",
    ] {
      if let value = user[key] { view.append(key, value) }
    }
    if let factors = user["factors"]?.arrayValue { view.append("factors", .int(factors.count)) }
    return .object(view)
  }

  static func factorView(_ factor: JSONValue) -> JSONValue {
    var view = JSONObject()
    for key in ["id", "friendly_name", "factor_type", "status", "created_at"] {
      view.append(key, factor[key] ?? .null)
    }
    return .object(view)
  }
}

/// Why an auth statement could not run as written.
enum AuthStatementError: Error, Sendable, Equatable, CustomStringConvertible {
  /// `mfa verify` without a factor, and the user has not exactly one TOTP factor.
  case factorNeeded(count: Int)

  var description: String {
    switch self {
    case .factorNeeded(0):
      "no TOTP factor to verify: enrol one with 'mfa enroll totp'"
    case .factorNeeded(let count):
      "the user has \(count) TOTP factors: name one, as in 'mfa verify factor $id code '...''"
    }
  }
}
