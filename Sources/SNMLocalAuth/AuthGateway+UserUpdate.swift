import SNMGateway
import SNMWire

extension AuthGateway {
  /// `PUT /user`: `data` (merged into user_metadata; a null removes a key), `email` (a pending
  /// change and its mails; at once for an anonymous user when e-mails need no confirmation),
  /// `password` (with `nonce` from `/reauthenticate` when `securePasswordChange` is on and the
  /// session is older than 24 hours, as GoTrue; a nonce given is always checked). Answers the
  /// user. With a verified factor, changing e-mail or password needs an aal2 session.
  func updateUser(_ request: HTTPRequest, body: JSONValue) throws -> HTTPResponse {
    let claims = try bearerClaims(request)
    try limiter.admit(.signUp, from: request.remoteAddress)
    let email = body["email"]?.stringValue?.trimmingSpaces ?? ""
    let phone = body["phone"]?.stringValue ?? ""
    let password = body["password"]?.stringValue
    let nonce = body["nonce"]?.stringValue ?? ""
    let data = body["data"]
    if let data, data.objectValue == nil, !data.isNull {
      throw AuthFailure.badJSON("data")
    }
    if let data, !data.isNull { try AuthMetadataBound.check(data, name: "data") }
    if body["app_metadata"] != nil {
      throw AuthFailure(
        status: 403, code: "not_admin",
        message: "Updating app_metadata requires admin privileges")
    }
    if !email.isEmpty && !Self.isPlausibleEmail(email) { throw AuthFailure.invalidEmail }
    if !phone.isEmpty {
      throw AuthFailure.phoneLoginsDisabled
    }
    // A present password is checked whatever its value (GoTrue's checkPasswordStrength): an
    // empty one is weak, never a password of its own.
    if let password { try checkNewPassword(password) }
    let redirectTo = request.queryValue("redirect_to") ?? body["email_redirect_to"]?.stringValue
    // With `code_challenge`, the change's mails carry `pkce_` tokens (GoTrue's PKCE flow).
    let pkce = try PKCEChallenge(body)
    let user: AuthUserRow
    do {
      user = try inTransaction { connection in
        let (user, sessionID) = try tokenSubject(claims, on: connection)
        let store = AuthStore(connection)
        let changesEmail = !email.isEmpty && email.lowercased() != user.email.lowercased()
        let session = try store.sessionStanding(id: sessionID ?? "")
        let aal = session?.aal ?? "aal1"
        let hasVerifiedFactor = user.factors.contains { $0["status"]?.stringValue == "verified" }
        if hasVerifiedFactor && aal != "aal2" && (changesEmail || password != nil) {
          throw AuthFailure(
            status: 401, code: "insufficient_aal",
            message: "AAL2 session is required to update email or password when MFA is enabled.")
        }
        if user.isAnonymous && password != nil && email.isEmpty {
          throw AuthFailure.validationFailed(
            "Updating password of an anonymous user without an email or phone is not allowed",
            status: 422)
        }
        if changesEmail, try store.isEmailTaken(email, byOtherThan: user.id) {
          throw AuthFailure.emailExists
        }
        if let password {
          let stale = session?.isOlderThanADay ?? true
          if settings.securePasswordChange && stale && nonce.isEmpty {
            throw AuthFailure.reauthenticationNeeded
          }
          if !nonce.isEmpty { try useNonce(nonce, user: user, on: connection) }
          guard try !store.passwordMatches(userID: user.id, password: password) else {
            throw AuthFailure.samePassword
          }
          try store.setPassword(userID: user.id, to: password)
          // GoTrue signs the user out everywhere else when the password changes.
          try store.deleteSessions(userID: user.id, except: sessionID)
        }
        if let data, let object = data.objectValue {
          try store.mergeMetadata(.user, userID: user.id, with: object)
        }
        if changesEmail {
          if user.isAnonymous && !settings.confirmEmail {
            try store.convertAnonymous(userID: user.id, email: email)
          } else {
            try sendEmailChange(
              user, to: email, redirectTo: redirectTo, pkce: pkce, on: connection)
          }
        }
        guard let updated = try store.user(id: user.id) else {
          throw AuthFailure.userNotFound
        }
        return updated
      }
    } catch let failure as AuthFailure where failure.code == "reauthentication_not_valid" {
      // A wrong nonce counts as a wrong code (the change itself rolled back): a few spend it.
      if let id = claims["sub"]?.stringValue {
        try inTransaction { connection in try AuthStore(connection).recordWrongCode(userID: id) }
      }
      throw failure
    }
    return .json(status: 200, user.json)
  }

  /// Checks and uses up the code of a reauthentication mail (GoTrue's `verifyReauthentication`).
  func useNonce(_ nonce: String, user: AuthUserRow, on connection: PGConnection) throws {
    let hash = try OneTimeCode.hash(address: user.email.lowercased(), otp: nonce)
    guard
      try FlowTokenStore(connection).useReauthenticationCode(
        userID: user.id, hash: hash, expiry: settings.otpExpiry)
    else {
      throw AuthFailure(
        status: 422, code: "reauthentication_not_valid",
        message: "Nonce has expired or is invalid")
    }
  }
}
