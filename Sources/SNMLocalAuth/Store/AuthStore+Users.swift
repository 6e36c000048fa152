import SNMGateway
import SNMWire

extension AuthStore {
  /// The user with `id` (not soft-deleted), with its factors, or `nil`.
  func user(id: String) throws -> AuthUserRow? {
    let result = try connection.execute(
      "select \(AuthUserRow.columns) from auth.users u where u.id = $1::uuid "
        + "and u.deleted_at is null", [id])
    guard let first = result.rows.first, var user = AuthUserRow(first) else { return nil }
    user.factors = try factors(userID: user.id)
    return user
  }

  /// The user with `id`, soft-deleted ones included (the admin API shows them), or `nil`.
  func user(includingDeleted id: String) throws -> AuthUserRow? {
    let result = try connection.execute(
      "select \(AuthUserRow.columns) from auth.users u where u.id = $1::uuid", [id])
    guard let first = result.rows.first, var user = AuthUserRow(first) else { return nil }
    user.factors = try factors(userID: id)
    return user
  }

  /// The user whose e-mail is `email` (any case), or `nil`.
  func user(email: String) throws -> AuthUserRow? {
    let result = try connection.execute(
      "select u.id::text from auth.users u where lower(u.email) = lower($1) "
        + "and u.deleted_at is null", [email])
    guard let id = result.scalar else { return nil }
    return try user(id: id)
  }

  /// The user whose phone is `phone` (digits), or `nil`.
  func user(phone: String) throws -> AuthUserRow? {
    let result = try connection.execute(
      "select u.id::text from auth.users u where u.phone = $1 and u.deleted_at is null", [phone])
    guard let id = result.scalar else { return nil }
    return try user(id: id)
  }

  /// Inserts `user` into auth.users and returns its id. The one place a user row is made.
  func insertUser(_ user: NewAuthUser) throws -> String {
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
    try checkMetadataBound(userID: id)
    return id
  }

  /// The user's factors as GoTrue lists them on the user.
  func factors(userID: String) throws -> [JSONValue] {
    let rows = try connection.execute(
      "select id::text, friendly_name, factor_type, status, \(Self.iso("created_at")), "
        + "\(Self.iso("updated_at")), \(Self.iso("last_challenged_at")) from auth.mfa_factors "
        + "where user_id = $1::uuid order by created_at, id", [userID])
    return rows.rows.compactMap { row in
      guard row.count == 7, let id = row[0] else { return nil }
      var members: [JSONObject.Member] = [
        .init("id", .string(id)), .init("friendly_name", .string(row[1] ?? "")),
        .init("factor_type", .string(row[2] ?? "totp")), .init("status", .string(row[3] ?? "")),
        .init("created_at", .string(row[4] ?? "")), .init("updated_at", .string(row[5] ?? "")),
      ]
      if let challenged = row[6] {
        members.append(.init("last_challenged_at", .string(challenged)))
      }
      return .object(members)
    }
  }
}
