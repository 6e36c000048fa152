import SNMGateway
import SNMWire

extension AuthGateway {
  /// Runs `body` in a transaction on an admin connection (as the pool's own user, no request
  /// role); rolls back when it throws.
  func inTransaction<T>(_ body: (PGConnection) throws -> T) throws -> T {
    try pool.transaction(as: nil) { tx in try body(try tx.begun()) }
  }

  /// Creates a session for `userID` signed in by `method` and returns its GoTrue session JSON.
  func createSession(userID: String, method: String, on connection: PGConnection) throws
    -> JSONValue
  {
    let session = try AuthStore(connection).createSession(
      userID: userID, method: method, at: Int(now()))
    return try sessionJSON(
      userID: userID, sessionID: session.sessionID, refreshToken: session.refreshToken,
      on: connection)
  }

  /// `tokens.AccessTokenResponse`: access_token, token_type, expires_in, expires_at, refresh_token,
  /// user. The token's `aal` and `amr` are the session's: the sign-in method, then each factor
  /// verified since (newest first, as GoTrue sorts them).
  func sessionJSON(
    userID: String, sessionID: String, refreshToken: String, on connection: PGConnection
  ) throws -> JSONValue {
    let store = AuthStore(connection)
    guard let user = try store.user(id: userID) else { throw AuthFailure.userNotFound }
    guard let session = try store.session(id: sessionID) else {
      throw AuthFailure.sessionNotFound
    }
    var amr: [(String, Int)] = [(session.method, session.signedInAt ?? Int(now()))]
    amr += try store.amrClaims(sessionID: sessionID).map { ($0.method, $0.at) }
    // Newest first; a factor verified in the sign-in's second still comes before it.
    amr = amr.enumerated().sorted { ($0.element.1, $0.offset) > ($1.element.1, $1.offset) }
      .map(\.element)
    let issuedAt = Int(now())
    let expiresAt = issuedAt + settings.jwtExpiry
    let token = JSONValue.object([
      .init("iss", .string(settings.issuer)), .init("sub", .string(user.id)),
      .init("aud", .string("authenticated")), .init("exp", .int(expiresAt)),
      .init("iat", .int(issuedAt)), .init("email", .string(user.email)),
      .init("phone", .string(user.phone)), .init("app_metadata", user.appMetadata),
      .init("user_metadata", user.userMetadata), .init("role", .string("authenticated")),
      .init("aal", .string(session.aal)),
      .init(
        "amr",
        .array(
          amr.map { .object([.init("method", .string($0.0)), .init("timestamp", .int($0.1))]) })),
      .init("session_id", .string(sessionID)), .init("is_anonymous", .bool(user.isAnonymous)),
    ])
    return .object([
      .init("access_token", .string(try signer.signUserToken(token))),
      .init("token_type", .string("bearer")),
      .init("expires_in", .int(settings.jwtExpiry)), .init("expires_at", .int(expiresAt)),
      .init("refresh_token", .string(refreshToken)), .init("user", user.json),
    ])
  }
}
