import SNMCrypto
import SNMGateway
import SNMWire

/// GoTrue's MFA with TOTP for a signed-in user: enroll a factor (its secret, otpauth URI and QR
/// code), challenge it, verify a code (the session goes to aal2), unenroll it. Each handler is
/// request -> store call (`FactorStore`, `AuthStore`) -> GoTrue answer, in a transaction on the
/// gateway's pool; a challenge or verify is rate-limited per client address.
///
/// ```swift
/// let claims = try gateway.bearerClaims(request)
/// return try AuthMFA(gateway: gateway).handle(request, route: .enrollFactor, claims: claims)
/// ```
struct AuthMFA {
  let gateway: AuthGateway

  /// `/factors`, `/factors/{id}`, `/factors/{id}/challenge`, `/factors/{id}/verify`, for the
  /// user whose token carries `claims`.
  func handle(_ request: HTTPRequest, route: AuthRoute, claims: JSONValue) throws -> HTTPResponse {
    switch route {
    case .enrollFactor: return try enroll(try AuthGateway.body(request), claims: claims)
    case .unenrollFactor(let id):
      return try unenroll(try AuthGateway.uuidParameter(id, name: "factor_id"), claims: claims)
    case .challengeFactor(let id):
      try gateway.limiter.admit(.factor, from: request.remoteAddress)
      let id = try AuthGateway.uuidParameter(id, name: "factor_id")
      return try challenge(id, claims: claims, from: request.remoteAddress)
    case .verifyFactor(let id):
      try gateway.limiter.admit(.factor, from: request.remoteAddress)
      let id = try AuthGateway.uuidParameter(id, name: "factor_id")
      return try verifyFactor(
        id, body: try AuthGateway.body(request), claims: claims, from: request.remoteAddress)
    case .factorWrongMethod:
      throw AuthFailure.methodNotAllowed
    default:
      throw AuthFailure.notFound
    }
  }

  /// `POST /factors` `{"factor_type": "totp", "friendly_name", "issuer"}`: a new unverified TOTP
  /// factor; the answer carries its secret, otpauth URI and QR code (an SVG; the
  /// clients make it a data URI).
  func enroll(_ body: JSONValue, claims: JSONValue) throws -> HTTPResponse {
    let type = body["factor_type"]?.stringValue ?? ""
    switch type {
    case "totp": break
    case "phone":
      throw AuthFailure(
        status: 422, code: "mfa_phone_enroll_not_enabled",
        message: "MFA enroll is disabled for Phone")
    case "webauthn":
      throw AuthFailure(
        status: 422, code: "mfa_webauthn_enroll_not_enabled",
        message: "MFA enroll is disabled for WebAuthn")
    default:
      throw AuthFailure.validationFailed("factor_type needs to be totp, phone, or webauthn")
    }
    let name = body["friendly_name"]?.stringValue ?? ""
    let host =
      gateway.settings.siteURL.split(separator: "/").dropFirst().first.map(String.init) ?? "snm"
    let issuer = body["issuer"]?.stringValue.flatMap { $0.isEmpty ? nil : $0 } ?? host
    let totp = try TOTP.generate()
    let answer: JSONValue = try gateway.inTransaction { connection in
      let (user, sessionID) = try gateway.tokenSubject(claims, on: connection)
      let verified = user.factors.filter { $0["status"]?.stringValue == "verified" }.count
      if user.factors.contains(where: { $0["friendly_name"]?.stringValue == name }) && !name.isEmpty
      {
        throw AuthFailure(
          status: 422, code: "mfa_factor_name_conflict",
          message: "A factor with the friendly name \"\(name)\" for this user already exists")
      }
      if user.factors.count >= AuthSettings.maximumFactors {
        throw AuthFailure(
          status: 422, code: "too_many_enrolled_mfa_factors",
          message: "Maximum number of verified factors reached, unenroll to continue")
      }
      if verified > 0, try AuthStore(connection).aal(sessionID: sessionID) != "aal2" {
        throw AuthFailure(
          status: 403, code: "insufficient_aal", message: "AAL2 required to enroll a new factor")
      }
      let id = try FactorStore(connection).insertTOTP(
        userID: user.id, friendlyName: name, secret: totp.base32Secret)
      let account = user.email.isEmpty ? user.phone : user.email
      let uri = totp.uri(issuer: issuer, account: account)
      // Raw SVG: the clients add the `data:image/svg+xml;utf-8,` prefix themselves.
      let qr = QRCode(uri)?.svg() ?? ""
      return .object([
        .init("id", .string(id)), .init("type", .string("totp")),
        .init("friendly_name", .string(name)),
        .init(
          "totp",
          .object([
            .init("qr_code", .string(qr)), .init("secret", .string(totp.base32Secret)),
            .init("uri", .string(uri)),
          ])),
      ])
    }
    return .json(status: 200, answer)
  }

  /// The factor `id` of the token's user, locked; 404 mfa_factor_not_found.
  func ownFactor(_ id: String, userID: String, on connection: PGConnection) throws
    -> FactorStore.FactorRow
  {
    guard let factor = try FactorStore(connection).factor(id: id, userID: userID) else {
      throw AuthFailure.factorNotFound
    }
    return factor
  }

  /// `POST /factors/{id}/challenge`: `{"id", "type": "totp", "expires_at"}`.
  func challenge(_ factorID: String, claims: JSONValue, from client: String) throws -> HTTPResponse
  {
    let answer: JSONValue = try gateway.inTransaction { connection in
      let (user, _) = try gateway.tokenSubject(claims, on: connection)
      _ = try ownFactor(factorID, userID: user.id, on: connection)
      let challenge = try FactorStore(connection).createChallenge(
        factorID: factorID, ipAddress: client, expiry: AuthSettings.challengeExpiry)
      return .object([
        .init("id", .string(challenge.id)), .init("type", .string("totp")),
        .init("expires_at", .int(challenge.expiresAt)),
      ])
    }
    return .json(status: 200, answer)
  }

  /// `POST /factors/{id}/verify` `{"challenge_id", "code"}`: the session goes to aal2 (a `totp`
  /// entry joins its `amr`), the factor is verified, and the user's other aal1 sessions end; the
  /// answer is the session with new tokens. A challenge is used once and lasts 5 minutes; a code
  /// is accepted once (a replay of the step already used fails as a wrong code would).
  func verifyFactor(_ factorID: String, body: JSONValue, claims: JSONValue, from client: String)
    throws -> HTTPResponse
  {
    let challengeID = body["challenge_id"]?.stringValue ?? ""
    let code = body["code"]?.stringValue ?? ""
    let outcome: Result<JSONValue, AuthFailure> = try gateway.inTransaction { connection in
      let (user, sessionID) = try gateway.tokenSubject(claims, on: connection)
      let factor = try ownFactor(factorID, userID: user.id, on: connection)
      guard
        let challenge = try FactorStore(connection).challenge(
          id: challengeID, factorID: factorID, expiry: AuthSettings.challengeExpiry)
      else {
        throw AuthFailure(
          status: 422, code: "mfa_factor_not_found",
          message: "MFA factor with the provided challenge ID not found")
      }
      if challenge.ipAddress != client {
        throw AuthFailure(
          status: 422, code: "mfa_ip_address_mismatch",
          message: "Challenge and verify IP addresses mismatch.")
      }
      if challenge.isSpent {
        throw AuthFailure(
          status: 422, code: "mfa_challenge_expired",
          message:
            "MFA challenge \(challengeID) has expired, verify against another challenge or create a new challenge."
        )
      }
      let store = AuthStore(connection)
      if try store.isFactorLocked(factorID) { throw AuthGuessLimits.factorLocked }
      guard let totp = TOTP(base32Secret: factor.secret),
        let step = try totp.matchingStep(code, at: gateway.now(), skew: 1),
        factor.lastStep.map({ step > $0 }) ?? true
      else {
        try store.recordWrongFactorCode(factorID)
        return .failure(
          AuthFailure(
            status: 422, code: "mfa_verification_failed", message: "Invalid TOTP code entered"))
      }
      guard let sessionID else { throw AuthFailure.sessionNotFound }
      try store.forgetWrongFactorCodes(factorID)
      try FactorStore(connection).verify(
        factorID: factorID, challengeID: challengeID, step: step, userID: user.id)
      try store.elevate(sessionID: sessionID, factorID: factorID, userID: user.id)
      let refreshToken = try store.replaceRefreshTokens(
        userID: user.id, sessionID: sessionID)
      return .success(
        try gateway.sessionJSON(
          userID: user.id, sessionID: sessionID, refreshToken: refreshToken, on: connection))
    }
    return .json(status: 200, try outcome.get())
  }

  /// `DELETE /factors/{id}`: `{"id"}`; a verified factor needs an aal2 session.
  func unenroll(_ factorID: String, claims: JSONValue) throws -> HTTPResponse {
    try gateway.inTransaction { connection in
      let (user, sessionID) = try gateway.tokenSubject(claims, on: connection)
      let factor = try ownFactor(factorID, userID: user.id, on: connection)
      if factor.status == "verified", try AuthStore(connection).aal(sessionID: sessionID) != "aal2"
      {
        throw AuthFailure(
          status: 422, code: "insufficient_aal",
          message: "AAL2 required to unenroll verified factor")
      }
      try FactorStore(connection).delete(id: factorID)
    }
    return .json(status: 200, .object([.init("id", .string(factorID))]))
  }
}
