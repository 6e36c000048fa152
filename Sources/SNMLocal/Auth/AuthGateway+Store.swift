import SNMWire

/// One auth.users row in the shape the JSON needs.
struct AuthUserRow: Sendable {
  var id: String
  var email: String
  var phone: String
  var isAnonymous: Bool
  var appMetadata: JSONValue
  var userMetadata: JSONValue
  var createdAt: String
  var updatedAt: String
  var lastSignInAt: String?
  var emailConfirmedAt: String?
}

extension AuthGateway {
  static func iso(_ column: String) -> String {
    "to_char(\(column) at time zone 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS.US\"Z\"')"
  }

  static var userColumns: String {
    "id::text, coalesce(email, ''), coalesce(phone, ''), is_anonymous::text, "
      + "raw_app_meta_data::text, raw_user_meta_data::text, \(iso("created_at")), "
      + "\(iso("updated_at")), \(iso("last_sign_in_at")), \(iso("email_confirmed_at"))"
  }

  /// The user with `id`, or `nil`.
  func loadUser(_ id: String, on connection: PGConnection) throws -> AuthUserRow? {
    let result = try connection.execute(
      "select \(Self.userColumns) from auth.users where id = $1::uuid and deleted_at is null", [id])
    guard let row = result.rows.first, row.count == 10 else { return nil }
    return AuthUserRow(
      id: row[0] ?? id, email: row[1] ?? "", phone: row[2] ?? "", isAnonymous: row[3] == "true",
      appMetadata: (try? JSONValue(parsing: row[4] ?? "{}")) ?? .object([]),
      userMetadata: (try? JSONValue(parsing: row[5] ?? "{}")) ?? .object([]),
      createdAt: row[6] ?? "", updatedAt: row[7] ?? "", lastSignInAt: row[8],
      emailConfirmedAt: row[9])
  }

  /// Runs `body` in a transaction on an admin connection; rolls back when it throws.
  func inTransaction<T>(_ body: (PGConnection) throws -> T) throws -> T {
    try pool.withConnection { connection in
      _ = try connection.execute("begin")
      do {
        let value = try body(connection)
        _ = try connection.execute("commit")
        return value
      } catch {
        _ = try? connection.execute("rollback")
        throw error
      }
    }
  }

  /// A new opaque refresh token: 24 lowercase hex digits.
  static func newRefreshToken() throws -> String {
    Crypto.hex(try Crypto.randomBytes(12))
  }

  /// Creates a session for `userID` signed in by `method` and returns its GoTrue session JSON.
  func createSession(userID: String, method: String, on connection: PGConnection) throws
    -> JSONValue
  {
    let issued = Int(now())
    let session = try connection.execute(
      "insert into auth.sessions (user_id, amr_method, amr_timestamp) values ($1::uuid, $2, $3) "
        + "returning id::text", [userID, method, String(issued)])
    guard let sessionID = session.scalar else {
      throw PGError(kind: .client, message: "no session id")
    }
    let refreshToken = try Self.newRefreshToken()
    _ = try connection.execute(
      "insert into auth.refresh_tokens (token, user_id, session_id) values ($1, $2::uuid, $3::uuid)",
      [refreshToken, userID, sessionID])
    return try sessionJSON(
      userID: userID, sessionID: sessionID, refreshToken: refreshToken, method: method,
      methodTime: issued, on: connection)
  }

  /// `tokens.AccessTokenResponse`: access_token, token_type, expires_in, expires_at, refresh_token, user.
  func sessionJSON(
    userID: String, sessionID: String, refreshToken: String, method: String, methodTime: Int,
    on connection: PGConnection
  ) throws -> JSONValue {
    guard let user = try loadUser(userID, on: connection) else { throw AuthFailure.userNotFound }
    let issuedAt = Int(now())
    let expiresAt = issuedAt + settings.jwtExpiry
    let claims = JSONValue.object([
      .init("iss", .string(settings.issuer)), .init("sub", .string(user.id)),
      .init("aud", .string("authenticated")), .init("exp", .int(expiresAt)),
      .init("iat", .int(issuedAt)), .init("email", .string(user.email)),
      .init("phone", .string(user.phone)), .init("app_metadata", user.appMetadata),
      .init("user_metadata", user.userMetadata), .init("role", .string("authenticated")),
      .init("aal", .string("aal1")),
      .init(
        "amr",
        .array([.object([.init("method", .string(method)), .init("timestamp", .int(methodTime))])])),
      .init("session_id", .string(sessionID)), .init("is_anonymous", .bool(user.isAnonymous)),
    ])
    return .object([
      .init("access_token", .string(try signer.signUserToken(claims))),
      .init("token_type", .string("bearer")),
      .init("expires_in", .int(settings.jwtExpiry)), .init("expires_at", .int(expiresAt)),
      .init("refresh_token", .string(refreshToken)), .init("user", userJSON(user)),
    ])
  }

  /// GoTrue's user object (`models/user.go`).
  func userJSON(_ user: AuthUserRow) -> JSONValue {
    var members: [JSONObject.Member] = [
      .init("id", .string(user.id)), .init("aud", .string("authenticated")),
      .init("role", .string("authenticated")), .init("email", .string(user.email)),
    ]
    if let confirmed = user.emailConfirmedAt {
      members.append(.init("email_confirmed_at", .string(confirmed)))
    }
    members.append(.init("phone", .string(user.phone)))
    if let confirmed = user.emailConfirmedAt {
      members.append(.init("confirmed_at", .string(confirmed)))
    }
    if let last = user.lastSignInAt { members.append(.init("last_sign_in_at", .string(last))) }
    var identities: [JSONValue] = []
    if !user.isAnonymous, !user.email.isEmpty {
      identities.append(
        .object([
          .init("identity_id", .string(user.id)), .init("id", .string(user.id)),
          .init("user_id", .string(user.id)),
          .init(
            "identity_data",
            .object([
              .init("email", .string(user.email)), .init("email_verified", .bool(true)),
              .init("phone_verified", .bool(false)), .init("sub", .string(user.id)),
            ])),
          .init("provider", .string("email")),
          .init("last_sign_in_at", .optional(user.lastSignInAt)),
          .init("created_at", .string(user.createdAt)),
          .init("updated_at", .string(user.updatedAt)),
          .init("email", .string(user.email)),
        ]))
    }
    members += [
      .init("app_metadata", user.appMetadata), .init("user_metadata", user.userMetadata),
      .init("identities", .array(identities)), .init("created_at", .string(user.createdAt)),
      .init("updated_at", .string(user.updatedAt)), .init("is_anonymous", .bool(user.isAnonymous)),
    ]
    return .object(members)
  }
}
