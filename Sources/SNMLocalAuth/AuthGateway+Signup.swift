import SNMGateway
import SNMWire

extension AuthGateway {
  /// `POST /signup`: `{}` (no email, no phone) signs in anonymously; else email + password.
  /// Each kind has its own rate limit per client address (`client`). With `confirmEmail` the new
  /// user gets a confirmation mail and no session (the answer is the user), as GoTrue without
  /// autoconfirm; signing up again at an unconfirmed address mails again.
  func signup(_ body: JSONValue, from client: String) throws -> HTTPResponse {
    let email = body["email"]?.stringValue?.trimmingSpaces ?? ""
    let phone = body["phone"]?.stringValue ?? ""
    let metadata = try Self.metadata(body["data"], name: "data")
    guard settings.signupEnabled else { throw AuthFailure.signupDisabled }
    try limiter.admit(email.isEmpty && phone.isEmpty ? .anonymous : .signUp, from: client)
    if email.isEmpty && phone.isEmpty {
      guard settings.anonymousEnabled else {
        throw AuthFailure(
          status: 422, code: "anonymous_provider_disabled",
          message: "Anonymous sign-ins are disabled")
      }
      let session = try inTransaction { connection in
        let id = try AuthStore(connection).insertUser(
          NewAuthUser(userMetadata: metadata, anonymous: true, signedIn: true))
        return try createSession(userID: id, method: "anonymous", on: connection)
      }
      return .json(status: 200, session)
    }
    if !email.isEmpty && !phone.isEmpty {
      throw AuthFailure.validationFailed(
        "Only an email address or phone number should be provided on signup.")
    }
    if email.isEmpty {
      return try AuthPhoneProvider(gateway: self).signup(body, phone: phone, metadata: metadata)
    }
    guard Self.isPlausibleEmail(email) else { throw AuthFailure.invalidEmail }
    guard let password = body["password"]?.stringValue, !password.isEmpty else {
      throw AuthFailure.passwordRequired
    }
    try checkNewPassword(password)
    let pkce = try PKCEChallenge(body)
    let redirectTo = body["redirect_to"]?.stringValue ?? body["email_redirect_to"]?.stringValue
    do {
      return try inTransaction { connection in
        let store = AuthStore(connection)
        if let existing = try store.user(email: email) {
          guard settings.confirmEmail else { throw AuthFailure.userAlreadyExists }
          if existing.emailConfirmedAt == nil {
            try store.renewSignUp(userID: existing.id, password: password, metadata: metadata)
            try sendMail(
              .signup, to: email, userID: existing.id, redirectTo: redirectTo, pkce: pkce,
              on: connection)
          }
          // As GoTrue: the same answer whether or not the address was taken.
          return .json(status: 200, Self.obfuscatedUser(email: email, metadata: metadata))
        }
        let id = try store.insertUser(
          NewAuthUser(
            email: email, password: password, provider: "email", userMetadata: metadata,
            emailConfirmed: !settings.confirmEmail, signedIn: !settings.confirmEmail))
        if settings.confirmEmail {
          try sendMail(
            .signup, to: email, userID: id, redirectTo: redirectTo, pkce: pkce, on: connection)
          guard let user = try store.user(id: id) else { throw AuthFailure.userNotFound }
          return .json(status: 200, user.json)
        }
        return .json(status: 200, try createSession(userID: id, method: "password", on: connection))
      }
    } catch let error as PGError where error.sqlState == "23505" {
      // Another sign-up with this e-mail committed between the check and the insert.
      throw AuthFailure.userAlreadyExists
    }
  }

  /// GoTrue's password rules for a new password: at most 72 bytes, no NUL, the minimum length.
  func checkNewPassword(_ password: String) throws(AuthFailure) {
    guard password.utf8.count <= AuthSettings.maximumPasswordBytes else {
      throw AuthFailure.passwordTooLong
    }
    guard !password.utf8.contains(0) else { throw AuthFailure.passwordHasNUL }
    guard password.count >= settings.minimumPasswordLength else {
      throw AuthFailure.weakPassword(minimum: settings.minimumPasswordLength)
    }
  }

  /// The user GoTrue answers a repeated sign-up with when it must not tell whether the address
  /// is taken: a fresh id, the address, no identities.
  static func obfuscatedUser(email: String = "", phone: String = "", metadata: JSONValue)
    -> JSONValue
  {
    let bytes = (try? Crypto.randomBytes(16)) ?? Array(repeating: 0, count: 16)
    let hex = Crypto.hex(bytes)
    let id = [0..<8, 8..<12, 12..<16, 16..<20, 20..<32].map { range in
      String(hex.dropFirst(range.lowerBound).prefix(range.count))
    }.joined(separator: "-")
    return .object([
      .init("id", .string(id)), .init("aud", .string("authenticated")),
      .init("role", .string("authenticated")), .init("email", .string(email.lowercased())),
      .init("phone", .string(phone)), .init("app_metadata", .object([])),
      .init("user_metadata", metadata), .init("identities", .array([])),
      .init("is_anonymous", .bool(false)),
    ])
  }

  /// `local@domain.tld`, no spaces, one `@`: what GoTrue's format check accepts in practice.
  static func isPlausibleEmail(_ email: String) -> Bool {
    let parts = email.split(separator: "@", omittingEmptySubsequences: false)
    guard parts.count == 2, !parts[0].isEmpty, parts[1].contains("."), email.count <= 255,
      !email.contains(where: { $0.isWhitespace || $0.asciiValue.map { $0 < 0x20 } == true })
    else { return false }
    return !parts[1].hasPrefix(".") && !parts[1].hasSuffix(".")
  }
}
