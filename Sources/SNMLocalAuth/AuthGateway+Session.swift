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
      .init("refresh_token", .string(refreshToken)), .init("user", userJSON(user)),
    ])
  }

  /// GoTrue's user object (`models/user.go`), its fields in GoTrue's order.
  func userJSON(_ user: AuthUserRow) -> JSONValue {
    var members: [JSONObject.Member] = [
      .init("id", .string(user.id)), .init("aud", .string("authenticated")),
      .init("role", .string("authenticated")), .init("email", .string(user.email)),
    ]
    func optional(_ name: String, _ value: String?) {
      if let value { members.append(.init(name, .string(value))) }
    }
    optional("email_confirmed_at", user.emailConfirmedAt)
    members.append(.init("phone", .string(user.phone)))
    optional("phone_confirmed_at", user.phoneConfirmedAt)
    optional("confirmation_sent_at", user.confirmationSentAt)
    optional("confirmed_at", user.emailConfirmedAt ?? user.phoneConfirmedAt)
    optional("recovery_sent_at", user.recoverySentAt)
    if !user.newEmail.isEmpty { members.append(.init("new_email", .string(user.newEmail))) }
    optional("email_change_sent_at", user.emailChangeSentAt)
    optional("reauthentication_sent_at", user.reauthenticationSentAt)
    optional("invited_at", user.invitedAt)
    optional("last_sign_in_at", user.lastSignInAt)
    var identities: [JSONValue] = []
    // The identity of the provider the user signed up with: e-mail, else the phone.
    let byPhone = user.email.isEmpty && !user.phone.isEmpty
    if !user.isAnonymous, !user.email.isEmpty || byPhone {
      let data: [JSONObject.Member] =
        byPhone
        ? [
          .init("email_verified", .bool(false)), .init("phone", .string(user.phone)),
          .init("phone_verified", .bool(user.phoneConfirmedAt != nil)),
          .init("sub", .string(user.id)),
        ]
        : [
          .init("email", .string(user.email)),
          .init("email_verified", .bool(user.emailConfirmedAt != nil)),
          .init("phone_verified", .bool(false)), .init("sub", .string(user.id)),
        ]
      identities.append(
        .object([
          .init("identity_id", .string(user.id)), .init("id", .string(user.id)),
          .init("user_id", .string(user.id)),
          .init("identity_data", .object(data)),
          .init("provider", .string(byPhone ? "phone" : "email")),
          .init("last_sign_in_at", .optional(user.lastSignInAt)),
          .init("created_at", .string(user.createdAt)),
          .init("updated_at", .string(user.updatedAt)),
          .init("email", .string(user.email)),
        ]))
    }
    members += [.init("app_metadata", user.appMetadata), .init("user_metadata", user.userMetadata)]
    if !user.factors.isEmpty { members.append(.init("factors", .array(user.factors))) }
    members.append(.init("identities", .array(identities)))
    optional("banned_until", user.bannedUntil)
    members += [
      .init("created_at", .string(user.createdAt)), .init("updated_at", .string(user.updatedAt)),
    ]
    optional("deleted_at", user.deletedAt)
    members.append(.init("is_anonymous", .bool(user.isAnonymous)))
    return .object(members)
  }
}
