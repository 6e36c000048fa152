import SNMGateway
import SNMWire

/// Every SQL statement about external identities (GoTrue's `auth.identities`): the provider's
/// subject an id_token names, found, linked to a user, signed in with. Named operations on the
/// caller's transaction, values only as parameters.
///
/// ```swift
/// let identities = IdentityStore(connection)
/// if let id = try identities.userID(provider: "apple", subject: sub) { ... }
/// try identities.link(userID: id, provider: "apple", subject: sub, data: claims)
/// ```
/// Every operation throws `PGError` when Postgres refuses a statement.
struct IdentityStore: AuthSQLStore {
  let connection: PGConnection

  /// The user whose identity of `provider` has subject `subject` (not soft-deleted), or nil.
  func userID(provider: String, subject: String) throws -> String? {
    try connection.execute(
      "select i.user_id::text from auth.identities i join auth.users u on u.id = i.user_id "
        + "where i.provider = $1 and i.provider_id = $2 and u.deleted_at is null",
      [provider, subject]
    ).scalar
  }

  /// Links the identity to `userID`, signed in now, and names the provider among the user's
  /// `app_metadata.providers`.
  func link(userID: String, provider: String, subject: String, data: JSONValue) throws {
    _ = try connection.execute(
      "insert into auth.identities (provider_id, user_id, identity_data, provider, "
        + "last_sign_in_at) values ($1, $2::uuid, $3::jsonb, $4, now())",
      [subject, userID, data.serialized(), provider])
    _ = try connection.execute(
      "update auth.users set raw_app_meta_data = jsonb_set(raw_app_meta_data, '{providers}', "
        + "coalesce(raw_app_meta_data -> 'providers', '[]'::jsonb) || to_jsonb($2::text)) "
        + "where id = $1::uuid and not coalesce(raw_app_meta_data -> 'providers', '[]'::jsonb) "
        + "? $2", [userID, provider])
  }

  /// A sign-in with the identity: its data as the provider gives it now, signed in now.
  func signIn(provider: String, subject: String, data: JSONValue) throws {
    _ = try connection.execute(
      "update auth.identities set identity_data = $3::jsonb, last_sign_in_at = now(), "
        + "updated_at = now() where provider = $1 and provider_id = $2",
      [provider, subject, data.serialized()])
  }
}
