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
  var confirmationSentAt: String?
  var recoverySentAt: String?
  var newEmail: String
  var emailChangeSentAt: String?
  var invitedAt: String?
  var bannedUntil: String?
  var deletedAt: String?
  var reauthenticationSentAt: String?
  /// Whether `banned_until` lies in the future.
  var isBanned: Bool
  var phoneConfirmedAt: String?
  var factors: [JSONValue] = []
}

extension AuthGateway {
  static func iso(_ column: String) -> String {
    "to_char(\(column) at time zone 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS.US\"Z\"')"
  }

  static var userColumns: String {
    "u.id::text, coalesce(u.email, ''), coalesce(u.phone, ''), u.is_anonymous::text, "
      + "u.raw_app_meta_data::text, u.raw_user_meta_data::text, \(iso("u.created_at")), "
      + "\(iso("u.updated_at")), \(iso("u.last_sign_in_at")), \(iso("u.email_confirmed_at")), "
      + "\(iso("u.confirmation_sent_at")), \(iso("u.recovery_sent_at")), u.email_change, "
      + "\(iso("u.email_change_sent_at")), \(iso("u.invited_at")), \(iso("u.banned_until")), "
      + "\(iso("u.deleted_at")), \(iso("u.reauthentication_sent_at")), "
      + "coalesce(u.banned_until > now(), false)::text, \(iso("u.phone_confirmed_at"))"
  }

  static let userColumnCount = 20

  /// A row of `userColumns`, or nil when it has not their count.
  static func userRow(_ row: [String?]) -> AuthUserRow? {
    guard row.count >= userColumnCount, let id = row[0] else { return nil }
    return AuthUserRow(
      id: id, email: row[1] ?? "", phone: row[2] ?? "", isAnonymous: row[3] == "true",
      appMetadata: objectOrEmpty(row[4]), userMetadata: objectOrEmpty(row[5]),
      createdAt: row[6] ?? "", updatedAt: row[7] ?? "", lastSignInAt: row[8],
      emailConfirmedAt: row[9], confirmationSentAt: row[10], recoverySentAt: row[11],
      newEmail: row[12] ?? "", emailChangeSentAt: row[13], invitedAt: row[14],
      bannedUntil: row[15], deletedAt: row[16], reauthenticationSentAt: row[17],
      isBanned: row[18] == "true", phoneConfirmedAt: row[19])
  }

  /// A stored metadata object; anything else (an older snm stored `null` for `"data": null`) as
  /// `{}`, which GoTrue's clients expect.
  static func objectOrEmpty(_ text: String?) -> JSONValue {
    guard let text, let value = try? JSONValue(parsing: text), value.objectValue != nil else {
      return .object([])
    }
    return value
  }

  /// The user with `id` (not soft-deleted), with its factors, or `nil`.
  func loadUser(_ id: String, on connection: PGConnection) throws -> AuthUserRow? {
    let result = try connection.execute(
      "select \(Self.userColumns) from auth.users u where u.id = $1::uuid and u.deleted_at is null",
      [id])
    guard let first = result.rows.first, var user = Self.userRow(first) else { return nil }
    user.factors = try loadFactors(userID: user.id, on: connection)
    return user
  }

  /// The user whose e-mail is `email` (any case), or `nil`.
  func loadUser(email: String, on connection: PGConnection) throws -> AuthUserRow? {
    let result = try connection.execute(
      "select u.id::text from auth.users u where lower(u.email) = lower($1) "
        + "and u.deleted_at is null", [email])
    guard let id = result.scalar else { return nil }
    return try loadUser(id, on: connection)
  }

  /// Runs `body` in a transaction on an admin connection (as the pool's own user, no request
  /// role); rolls back when it throws.
  func inTransaction<T>(_ body: (PGConnection) throws -> T) throws -> T {
    try pool.transaction(as: nil) { tx in try body(try tx.begun()) }
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
      userID: userID, sessionID: sessionID, refreshToken: refreshToken, on: connection)
  }

  /// `tokens.AccessTokenResponse`: access_token, token_type, expires_in, expires_at, refresh_token,
  /// user. The token's `aal` and `amr` are the session's: the sign-in method, then each factor
  /// verified since (newest first, as GoTrue sorts them).
  func sessionJSON(
    userID: String, sessionID: String, refreshToken: String, on connection: PGConnection
  ) throws -> JSONValue {
    guard let user = try loadUser(userID, on: connection) else { throw AuthFailure.userNotFound }
    let session = try connection.execute(
      "select aal, amr_method, amr_timestamp::text from auth.sessions where id = $1::uuid",
      [sessionID])
    guard let row = session.rows.first, row.count == 3 else { throw AuthFailure.sessionNotFound }
    var amr: [(String, Int)] = [(row[1] ?? "password", Int(row[2] ?? "") ?? Int(now()))]
    let claims = try connection.execute(
      "select authentication_method, extract(epoch from created_at)::bigint::text "
        + "from auth.mfa_amr_claims where session_id = $1::uuid", [sessionID])
    for claim in claims.rows where claim.count == 2 {
      amr.append((claim[0] ?? "", Int(claim[1] ?? "") ?? 0))
    }
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
      .init("aal", .string(row[0] ?? "aal1")),
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

/// What a new auth.users row holds: each way of making a user (sign-up by e-mail or phone, an
/// anonymous sign-in, a magic link or OTP for an unknown address, an invite, the admin API) sets
/// some of these and leaves the rest to the table's defaults.
struct NewAuthUser {
  var email = ""
  var phone = ""
  /// Stored as a bcrypt hash; `nil` for a user with no password yet.
  var password: String?
  /// `raw_app_meta_data`'s `provider` and `providers` ("email", "phone"); `nil` for none.
  var provider: String?
  /// Merged over the provider's members.
  var appMetadata: JSONValue = .object([])
  var userMetadata: JSONValue = .object([])
  var emailConfirmed = false
  var phoneConfirmed = false
  var invited = false
  var anonymous = false
  /// `last_sign_in_at` now: the user is signed in as it is made.
  var signedIn = false
  /// `banned_until` that many seconds from now; 0 for none.
  var bannedSeconds: Double = 0
}

extension AuthGateway {
  /// Inserts `user` into auth.users and returns its id. The one place a user row is made.
  func insertUser(_ user: NewAuthUser, on connection: PGConnection) throws -> String {
    func flag(_ value: Bool) -> String { value ? "true" : "false" }
    let created = try connection.execute(
      "insert into auth.users (email, phone, encrypted_password, email_confirmed_at, "
        + "phone_confirmed_at, invited_at, is_anonymous, last_sign_in_at, banned_until, "
        + "raw_app_meta_data, raw_user_meta_data) values (nullif(lower($1), ''), nullif($2, ''), "
        + "case when $3::text is null then null else extensions.crypt($3, "
        + "extensions.gen_salt('bf', \(AuthSettings.bcryptCost))) end, "
        + "case when $4 then now() end, case when $5 then now() end, "
        + "case when $6 then now() end, $7, case when $8 then now() end, "
        + "case when $9::float8 > 0 then now() + make_interval(secs => $9::float8) end, "
        + "case when $10::text is null then '{}'::jsonb else jsonb_build_object('provider', "
        + "$10::text, 'providers', jsonb_build_array($10::text)) end || $11::jsonb, $12::jsonb) "
        + "returning id::text",
      [
        user.email, user.phone, user.password, flag(user.emailConfirmed),
        flag(user.phoneConfirmed), flag(user.invited), flag(user.anonymous), flag(user.signedIn),
        String(user.bannedSeconds), user.provider, user.appMetadata.serialized(),
        user.userMetadata.serialized(),
      ])
    guard let id = created.scalar else { throw PGError(kind: .client, message: "no user id") }
    try AuthMetadataBound.checkStored(id, on: connection)
    return id
  }
}
