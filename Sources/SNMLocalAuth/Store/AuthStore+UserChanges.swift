import SNMWire

extension AuthStore {
  /// The two metadata objects of a user.
  enum MetadataColumn: String {
    /// `user_metadata`: the user's own (`PUT /user`'s `data`).
    case user = "raw_user_meta_data"
    /// `app_metadata`: the project's (only the admin API changes it).
    case app = "raw_app_meta_data"
  }

  /// How a password sign-in names its user.
  enum Login {
    case email(String)
    case phone(String)
  }

  /// A user whose password matched: whether they may sign in.
  struct PasswordMatch: Equatable {
    var userID: String
    var isBanned: Bool
    /// The address (or number) the user signed in with is confirmed.
    var isConfirmed: Bool
  }

  /// Whether a user (soft-deleted ones included) has `email` (any case), but `userID`.
  func isEmailTaken(_ email: String, byOtherThan userID: String? = nil) throws -> Bool {
    let taken = try connection.execute(
      "select 1 from auth.users where lower(email) = lower($1) "
        + "and ($2::uuid is null or id <> $2::uuid)", [email, userID])
    return !taken.rows.isEmpty
  }

  /// Whether a user (soft-deleted ones included) has `phone` (digits).
  func isPhoneTaken(_ phone: String) throws -> Bool {
    !(try connection.execute("select 1 from auth.users where phone = $1", [phone])).rows.isEmpty
  }

  /// The user (not soft-deleted) with a pending change to `email` (any case), or nil.
  func user(pendingEmail email: String) throws -> AuthUserRow? {
    let found = try connection.execute(
      "select id::text from auth.users where lower(email_change) = lower($1) "
        + "and deleted_at is null", [email])
    guard let id = found.scalar else { return nil }
    return try user(id: id)
  }

  /// Whether the user's ban lasts (false for no such user).
  func isBanned(userID: String) throws -> Bool {
    let banned = try connection.execute(
      "select coalesce(banned_until > now(), false)::text from auth.users where id = $1::uuid",
      [userID])
    return banned.scalar == "true"
  }

  /// The user (not soft-deleted) that `login` names whose password is `password`, or nil. The
  /// password is checked against its bcrypt hash by Postgres.
  func passwordSignIn(_ login: Login, password: String) throws -> PasswordMatch? {
    let (match, value, confirmedAt) =
      switch login {
      case .email(let email): ("lower(email) = lower($1)", email, "email_confirmed_at")
      case .phone(let phone): ("phone = $1", phone, "phone_confirmed_at")
      }
    let found = try connection.execute(
      "select id::text, coalesce(banned_until > now(), false)::text, "
        + "(\(confirmedAt) is not null)::text from auth.users where \(match) "
        + "and encrypted_password is not null and deleted_at is null "
        + "and encrypted_password = extensions.crypt($2, encrypted_password)",
      [value, password])
    guard let row = found.rows.first, row.count == 3, let id = row[0] else { return nil }
    return PasswordMatch(userID: id, isBanned: row[1] == "true", isConfirmed: row[2] == "true")
  }

  /// Whether `password` is the user's password now.
  func passwordMatches(userID: String, password: String) throws -> Bool {
    let same = try connection.execute(
      "select 1 from auth.users where id = $1::uuid and encrypted_password is not null "
        + "and encrypted_password = extensions.crypt($2, encrypted_password)",
      [userID, password])
    return !same.rows.isEmpty
  }

  /// The user signs in now (`last_sign_in_at`); a password sign-in also touches `updated_at`.
  func recordSignIn(userID: String, touchingUpdatedAt: Bool = false) throws {
    _ = try connection.execute(
      "update auth.users set last_sign_in_at = now()"
        + (touchingUpdatedAt ? ", updated_at = now()" : "") + " where id = $1::uuid", [userID])
  }

  /// Sets the user's password (kept as a bcrypt hash).
  func setPassword(userID: String, to password: String) throws {
    _ = try connection.execute(
      "update auth.users set encrypted_password = extensions.crypt($2, "
        + "extensions.gen_salt('bf', \(AuthSettings.bcryptCost))), updated_at = now() "
        + "where id = $1::uuid", [userID, password])
  }

  /// Sets the user's address (lowercased) at once, dropping a pending change (the admin API).
  func setEmail(userID: String, to email: String) throws {
    _ = try connection.execute(
      "update auth.users set email = lower($2), email_change = '', updated_at = now() "
        + "where id = $1::uuid", [userID, email])
  }

  /// Confirms the user's address (keeping an earlier confirmation's time), or unconfirms it.
  func setEmailConfirmed(userID: String, _ confirmed: Bool) throws {
    _ = try connection.execute(
      "update auth.users set email_confirmed_at = case when $2 then "
        + "coalesce(email_confirmed_at, now()) end, updated_at = now() where id = $1::uuid",
      [userID, confirmed ? "true" : "false"])
  }

  /// Confirms the user's phone number now.
  func confirmPhone(userID: String) throws {
    _ = try connection.execute(
      "update auth.users set phone_confirmed_at = now(), updated_at = now() "
        + "where id = $1::uuid", [userID])
  }

  /// Merges `object` into the user's metadata `column`: its members replace the stored ones, a
  /// member whose value is null removes the key.
  ///
  /// - Throws: `AuthMetadataBound.tooLarge` (422) when the result passes the bound.
  func mergeMetadata(_ column: MetadataColumn, userID: String, with object: JSONObject) throws {
    let removed = object.filter { $0.value.isNull }.map { JSONValue.string($0.key) }
    _ = try connection.execute(
      "update auth.users set \(column.rawValue) = (\(column.rawValue) || $2::jsonb) "
        + "- array(select jsonb_array_elements_text($3::jsonb)), updated_at = now() "
        + "where id = $1::uuid",
      [userID, JSONValue.object(object).serialized(), JSONValue.array(removed).serialized()])
    try checkMetadataBound(userID: userID)
  }

  /// Refuses (the caller's transaction then rolls back) a user whose metadata, as stored after
  /// an insert or a merge, passes `AuthMetadataBound.maximumBytes`.
  ///
  /// - Throws: `AuthMetadataBound.tooLarge` (422), or the query's `PGError`.
  func checkMetadataBound(userID: String) throws {
    let size = try connection.execute(
      "select coalesce(octet_length(raw_user_meta_data::text), 0) "
        + "+ coalesce(octet_length(raw_app_meta_data::text), 0) from auth.users "
        + "where id = $1::uuid", [userID]
    ).scalar
    guard let size, let bytes = Int(size), bytes > AuthMetadataBound.maximumBytes else { return }
    throw AuthMetadataBound.tooLarge
  }

  /// An unconfirmed user invited again: `invited_at` now, `metadata` merged over their own.
  ///
  /// - Throws: `AuthMetadataBound.tooLarge` (422) when the result passes the bound.
  func reinvite(userID: String, metadata: JSONValue) throws {
    _ = try connection.execute(
      "update auth.users set invited_at = now(), raw_user_meta_data = raw_user_meta_data || $2::jsonb "
        + "where id = $1::uuid", [userID, metadata.serialized()])
    try checkMetadataBound(userID: userID)
  }

  /// A sign-up again at an unconfirmed address: the new password and metadata replace the old.
  ///
  /// - Throws: `AuthMetadataBound.tooLarge` (422) when the metadata passes the bound.
  func renewSignUp(userID: String, password: String, metadata: JSONValue) throws {
    _ = try connection.execute(
      "update auth.users set encrypted_password = extensions.crypt($2, "
        + "extensions.gen_salt('bf', \(AuthSettings.bcryptCost))), "
        + "raw_user_meta_data = $3::jsonb, updated_at = now() where id = $1::uuid",
      [userID, password, metadata.serialized()])
    try checkMetadataBound(userID: userID)
  }

  /// An anonymous user takes `email` (confirmed: the project confirms no addresses) and the
  /// e-mail provider, and is anonymous no more.
  func convertAnonymous(userID: String, email: String) throws {
    _ = try connection.execute(
      "update auth.users set email = lower($2), email_confirmed_at = now(), "
        + #"is_anonymous = false, raw_app_meta_data = raw_app_meta_data || "#
        + #"'{"provider":"email","providers":["email"]}', updated_at = now() "#
        + "where id = $1::uuid", [userID, email])
  }

  /// Bans the user for `seconds` from now; 0 lifts a ban. Their sessions stay
  /// (`deleteSessions(userID:)` ends them).
  func ban(userID: String, seconds: Double) throws {
    _ = try connection.execute(
      "update auth.users set banned_until = case when $2::float8 > 0 then "
        + "now() + make_interval(secs => $2::float8) end, updated_at = now() "
        + "where id = $1::uuid", [userID, String(seconds)])
  }

  /// Deletes the user and everything of theirs.
  func deleteUser(id: String) throws {
    _ = try connection.execute("delete from auth.users where id = $1::uuid", [id])
  }

  /// Soft-deletes the user: the row (and its id) stays, with no address, password, metadata or
  /// pending code; their sessions and factors end.
  func softDeleteUser(id: String) throws {
    try deleteSessions(userID: id)
    _ = try connection.execute("delete from auth.mfa_factors where user_id = $1::uuid", [id])
    _ = try connection.execute(
      "update auth.users set email = null, phone = null, encrypted_password = null, "
        + "raw_user_meta_data = '{}', email_change = '', confirmation_token = '', "
        + "recovery_token = '', email_change_token_new = '', email_change_token_current = '', "
        + "reauthentication_token = '', deleted_at = now(), updated_at = now() "
        + "where id = $1::uuid", [id])
  }

  /// One page of users (soft-deleted ones included), newest first, whose e-mail or
  /// `full_name` metadata contains `filter` (any case; every user for ""), with their factors;
  /// and how many match in all.
  func users(matching filter: String, page: Int, perPage: Int) throws -> (
    users: [AuthUserRow], total: Int
  ) {
    let pattern =
      "%"
      + filter.replacingOccurrences(of: "\\", with: "\\\\")
      .replacingOccurrences(of: "%", with: "\\%").replacingOccurrences(of: "_", with: "\\_") + "%"
    let condition =
      "($1 = '%%' or u.email ilike $1 or u.raw_user_meta_data->>'full_name' ilike $1)"
    let count = try connection.execute(
      "select count(*)::text from auth.users u where \(condition)", [pattern])
    let rows = try connection.execute(
      "select \(AuthUserRow.columns) from auth.users u where \(condition) "
        + "order by u.created_at desc, u.id desc limit $2::bigint offset $3::bigint",
      [pattern, String(perPage), String((page - 1) * perPage)])
    var users: [AuthUserRow] = []
    for row in rows.rows {
      guard var user = AuthUserRow(row) else { continue }
      user.factors = try factors(userID: user.id)
      users.append(user)
    }
    return (users, Int(count.scalar ?? "0") ?? 0)
  }
}
