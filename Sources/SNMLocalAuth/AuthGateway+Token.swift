import SNMGateway
import SNMWire

extension AuthGateway {
  /// `POST /token?grant_type=password|refresh_token|pkce|id_token`; the grants share one rate limit per
  /// client address, checked after the grant type, as GoTrue does.
  func token(_ request: HTTPRequest, body: JSONValue) throws -> HTTPResponse {
    let grant = request.queryValue("grant_type") ?? ""
    guard ["password", "refresh_token", "pkce", "id_token"].contains(grant) else {
      throw AuthFailure(status: 400, code: "invalid_credentials", message: "unsupported_grant_type")
    }
    try limiter.admit(.token, from: request.remoteAddress)
    switch grant {
    case "password": return .json(status: 200, try passwordGrant(body))
    case "pkce": return .json(status: 200, try pkceGrant(body))
    case "id_token": return .json(status: 200, try AuthIDTokenGrant(gateway: self).grant(body))
    default: return .json(status: 200, try refreshGrant(body))
    }
  }

  /// GoTrue's checks in its order: one of email or phone (`AuthPhoneProvider.passwordGrant`), then the
  /// credentials, a ban, a confirmed address (`signIn`).
  func passwordGrant(_ body: JSONValue) throws -> JSONValue {
    let email = body["email"]?.stringValue ?? ""
    let phone = body["phone"]?.stringValue ?? ""
    if !email.isEmpty && !phone.isEmpty {
      throw AuthFailure.validationFailed(
        "Only an email address or phone number should be provided on login.")
    }
    if email.isEmpty && !phone.isEmpty {
      return try AuthPhoneProvider(gateway: self).passwordGrant(
        phone: phone, password: body["password"]?.stringValue)
    }
    guard !email.isEmpty else {
      throw AuthFailure.validationFailed("missing email or phone")
    }
    return try signIn(
      .email(email), password: body["password"]?.stringValue, unconfirmed: .emailNotConfirmed)
  }

  /// The password check both kinds of sign-in share: the user `login` names whose password is
  /// `password`, not banned, with the address or number confirmed (else `unconfirmed`); a
  /// session for them. A password no stored hash can match is refused
  /// before bcrypt runs: one longer than bcrypt reads (it would match on its first 72 bytes alone)
  /// or with a NUL (Postgres text cannot hold it, so no password was ever set with one).
  func signIn(_ login: AuthStore.Login, password: String?, unconfirmed: AuthFailure) throws
    -> JSONValue
  {
    let value: String
    switch login {
    case .email(let email): value = email
    case .phone(let phone): value = phone
    }
    guard !value.utf8.contains(0), let password, !password.isEmpty,
      password.utf8.count <= AuthSettings.maximumPasswordBytes, !password.utf8.contains(0)
    else { throw AuthFailure.invalidCredentials }
    return try inTransaction { connection in
      let store = AuthStore(connection)
      guard let match = try store.passwordSignIn(login, password: password) else {
        throw AuthFailure.invalidCredentials
      }
      if match.isBanned { throw AuthFailure.userBanned }
      if !match.isConfirmed { throw unconfirmed }
      try store.recordSignIn(userID: match.userID, touchingUpdatedAt: true)
      return try createSession(userID: match.userID, method: "password", on: connection)
    }
  }

  /// Single-use rotation, with GoTrue's allowances for a client that failed to save the last
  /// answer: the parent of the active token, or any token revoked less than
  /// `refreshReuseInterval` seconds ago, returns the active token again. Any other reuse revokes
  /// the whole session and answers 400 refresh_token_already_used.
  func refreshGrant(_ body: JSONValue) throws -> JSONValue {
    guard let token = body["refresh_token"]?.stringValue, token.count >= 12, token.count <= 255,
      !token.unicodeScalars.contains(where: { $0.value < 0x20 })
    else {
      throw AuthFailure.refreshTokenInvalid
    }
    let outcome: Result<JSONValue, AuthFailure> = try inTransaction { connection in
      switch try AuthStore(connection).rotateRefreshToken(
        token, reuseInterval: settings.refreshReuseInterval)
      {
      case .notFound: return .failure(.refreshTokenNotFound)
      case .reused: return .failure(.refreshTokenAlreadyUsed)
      case .issued(let userID, let sessionID, let issued):
        return .success(
          try sessionJSON(
            userID: userID, sessionID: sessionID, refreshToken: issued, on: connection))
      }
    }
    return try outcome.get()
  }
}
