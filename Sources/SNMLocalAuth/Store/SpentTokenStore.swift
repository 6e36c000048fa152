import SNMGateway

/// Every SQL statement about the test issuer's tokens already used (`auth.snm_spent_tokens`):
/// an Apple id_token and its nonce at `grant_type=id_token`, a GitHub code at `/callback`. Each
/// is kept by the SHA-256 of its kind and value until its expiry, so none signs in twice while
/// it is still valid (GitHub's codes are single-use; a replayed nonce is refused). Named
/// operations on the caller's transaction, values only as parameters.
///
/// ```swift
/// guard try SpentTokenStore(connection).spend("apple-token:" + token, until: exp) else { ... }
/// ```
/// Every operation throws `PGError` when Postgres refuses a statement.
struct SpentTokenStore: AuthSQLStore {
  let connection: PGConnection

  /// Marks `key` (kind and value, `apple-nonce:...`) used until `expiry` (seconds since 1970);
  /// false when it is already used and not yet expired. A concurrent spender of the same key
  /// waits for this transaction to end and then finds it used (or, rolled back, fresh).
  func spend(_ key: String, until expiry: Int) throws -> Bool {
    _ = try connection.execute("delete from auth.snm_spent_tokens where expires_at < now()")
    let fresh = try connection.execute(
      "insert into auth.snm_spent_tokens (digest, expires_at) values ($1, to_timestamp($2)) "
        + "on conflict (digest) do update set expires_at = excluded.expires_at "
        + "where auth.snm_spent_tokens.expires_at < now() returning 1",
      [Crypto.hex(try Crypto.sha256(Array(key.utf8))), String(expiry)])
    return !fresh.rows.isEmpty
  }
}
