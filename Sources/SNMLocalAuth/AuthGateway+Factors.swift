import SNMCrypto
import SNMGateway
import SNMWire

extension AuthGateway {
  /// `/factors`, `/factors/{id}`, `/factors/{id}/challenge`, `/factors/{id}/verify`, for the
  /// user whose token carries `claims`.
  func factors(_ request: HTTPRequest, route: AuthRoute, claims: JSONValue) throws -> HTTPResponse {
    switch route {
    case .enrollFactor: return try enroll(try Self.body(request), claims: claims)
    case .unenrollFactor(let id):
      return try unenroll(try Self.uuidParameter(id, name: "factor_id"), claims: claims)
    case .challengeFactor(let id):
      try limiter.admit(.factor, from: request.remoteAddress)
      let id = try Self.uuidParameter(id, name: "factor_id")
      return try challenge(id, claims: claims, from: request.remoteAddress)
    case .verifyFactor(let id):
      try limiter.admit(.factor, from: request.remoteAddress)
      let id = try Self.uuidParameter(id, name: "factor_id")
      return try verifyFactor(
        id, body: try Self.body(request), claims: claims, from: request.remoteAddress)
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
      throw AuthFailure(
        status: 400, code: "validation_failed",
        message: "factor_type needs to be totp, phone, or webauthn")
    }
    let name = body["friendly_name"]?.stringValue ?? ""
    let host = settings.siteURL.split(separator: "/").dropFirst().first.map(String.init) ?? "snm"
    let issuer = body["issuer"]?.stringValue.flatMap { $0.isEmpty ? nil : $0 } ?? host
    let totp = try TOTP.generate()
    let answer: JSONValue = try inTransaction { connection in
      let (user, sessionID) = try tokenSubject(claims, on: connection)
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
      let created = try connection.execute(
        "insert into auth.mfa_factors (user_id, friendly_name, factor_type, secret) "
          + "values ($1::uuid, $2, 'totp', $3) returning id::text",
        [user.id, name, totp.base32Secret])
      guard let id = created.scalar else { throw PGError(kind: .client, message: "no factor id") }
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

  /// The factor `id` of the token's user with its secret and status; 404 mfa_factor_not_found.
  func ownFactor(_ id: String, userID: String, on connection: PGConnection) throws -> (
    secret: String, status: String, lastStep: Int64?
  ) {
    let found = try connection.execute(
      "select secret, status, last_totp_step::text from auth.mfa_factors "
        + "where id = $1::uuid and user_id = $2::uuid for update", [id, userID])
    guard let row = found.rows.first, row.count == 3, let secret = row[0], let status = row[1]
    else { throw AuthFailure.factorNotFound }
    return (secret, status, row[2].flatMap { Int64($0) })
  }

  /// `POST /factors/{id}/challenge`: `{"id", "type": "totp", "expires_at"}`.
  func challenge(_ factorID: String, claims: JSONValue, from client: String) throws -> HTTPResponse
  {
    let answer: JSONValue = try inTransaction { connection in
      let (user, _) = try tokenSubject(claims, on: connection)
      _ = try ownFactor(factorID, userID: user.id, on: connection)
      let created = try connection.execute(
        "insert into auth.mfa_challenges (factor_id, ip_address) values ($1::uuid, $2) "
          + "returning id::text, (extract(epoch from created_at)::bigint + $3::bigint)::text",
        [factorID, client, String(AuthSettings.challengeExpiry)])
      _ = try connection.execute(
        "update auth.mfa_factors set last_challenged_at = now() where id = $1::uuid", [factorID])
      guard let row = created.rows.first, let id = row[0] else {
        throw PGError(kind: .client, message: "no challenge id")
      }
      return .object([
        .init("id", .string(id)), .init("type", .string("totp")),
        .init("expires_at", .int(Int(row[1] ?? "") ?? 0)),
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
    let outcome: Result<JSONValue, AuthFailure> = try inTransaction { connection in
      let (user, sessionID) = try tokenSubject(claims, on: connection)
      let factor = try ownFactor(factorID, userID: user.id, on: connection)
      let found = try connection.execute(
        "select ip_address, (verified_at is not null or created_at < now() - "
          + "make_interval(secs => $3::int))::text from auth.mfa_challenges "
          + "where id::text = $1 and factor_id = $2::uuid for update",
        [challengeID, factorID, String(AuthSettings.challengeExpiry)])
      guard let challenge = found.rows.first else {
        throw AuthFailure(
          status: 422, code: "mfa_factor_not_found",
          message: "MFA factor with the provided challenge ID not found")
      }
      if challenge[0] != client {
        throw AuthFailure(
          status: 422, code: "mfa_ip_address_mismatch",
          message: "Challenge and verify IP addresses mismatch.")
      }
      if challenge[1] == "true" {
        throw AuthFailure(
          status: 422, code: "mfa_challenge_expired",
          message:
            "MFA challenge \(challengeID) has expired, verify against another challenge or create a new challenge."
        )
      }
      if try AuthStore(connection).isFactorLocked(factorID) { throw AuthGuessLimits.factorLocked }
      guard let totp = TOTP(base32Secret: factor.secret),
        let step = try totp.matchingStep(code, at: now(), skew: 1),
        factor.lastStep.map({ step > $0 }) ?? true
      else {
        try AuthStore(connection).recordWrongFactorCode(factorID)
        return .failure(
          AuthFailure(
            status: 422, code: "mfa_verification_failed", message: "Invalid TOTP code entered"))
      }
      guard let sessionID else { throw AuthFailure.sessionNotFound }
      try AuthStore(connection).forgetWrongFactorCodes(factorID)
      _ = try connection.execute(
        "update auth.mfa_challenges set verified_at = now() where id = $1::uuid", [challengeID])
      _ = try connection.execute(
        "update auth.mfa_factors set status = 'verified', last_totp_step = $2::bigint, "
          + "updated_at = now() where id = $1::uuid", [factorID, String(step)])
      try AuthStore(connection).elevate(sessionID: sessionID, factorID: factorID, userID: user.id)
      _ = try connection.execute(
        "delete from auth.mfa_factors where user_id = $1::uuid and status = 'unverified' "
          + "and factor_type = 'totp'", [user.id])
      let refreshToken = try AuthStore(connection).replaceRefreshTokens(
        userID: user.id, sessionID: sessionID)
      return .success(
        try sessionJSON(
          userID: user.id, sessionID: sessionID, refreshToken: refreshToken, on: connection))
    }
    return .json(status: 200, try outcome.get())
  }

  /// `DELETE /factors/{id}`: `{"id"}`; a verified factor needs an aal2 session.
  func unenroll(_ factorID: String, claims: JSONValue) throws -> HTTPResponse {
    try inTransaction { connection in
      let (user, sessionID) = try tokenSubject(claims, on: connection)
      let factor = try ownFactor(factorID, userID: user.id, on: connection)
      if factor.status == "verified", try AuthStore(connection).aal(sessionID: sessionID) != "aal2"
      {
        throw AuthFailure(
          status: 422, code: "insufficient_aal",
          message: "AAL2 required to unenroll verified factor")
      }
      _ = try connection.execute("delete from auth.mfa_factors where id = $1::uuid", [factorID])
    }
    return .json(status: 200, .object([.init("id", .string(factorID))]))
  }
}
