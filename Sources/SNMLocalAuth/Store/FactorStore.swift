import SNMGateway

/// Every SQL statement about MFA factors and their challenges (`auth.mfa_factors`,
/// `auth.mfa_challenges`), as named operations on the caller's transaction, values only as
/// parameters. A factor's wrong codes are counted by `AuthStore` (`recordWrongFactorCode`), a
/// verified factor raises its session there (`elevate`).
///
/// ```swift
/// let factors = FactorStore(connection)
/// let id = try factors.insertTOTP(userID: user.id, friendlyName: "phone", secret: secret)
/// let challenge = try factors.createChallenge(factorID: id, ipAddress: client, expiry: 300)
/// ```
/// Every operation throws `PGError` when Postgres refuses a statement.
struct FactorStore: AuthSQLStore {
  let connection: PGConnection

  /// A factor as its own user's requests need it.
  struct FactorRow: Equatable {
    var secret: String
    var status: String
    /// The TOTP step of the last code accepted, nil before the first.
    var lastStep: Int64?
  }

  /// A challenge of a factor: the address it was made from, and whether it is spent (verified
  /// already, or older than the expiry).
  struct ChallengeRow: Equatable {
    var ipAddress: String?
    var isSpent: Bool
  }

  /// A new unverified TOTP factor of `userID`; returns its id.
  func insertTOTP(userID: String, friendlyName: String, secret: String) throws -> String {
    let created = try connection.execute(
      "insert into auth.mfa_factors (user_id, friendly_name, factor_type, secret) "
        + "values ($1::uuid, $2, 'totp', $3) returning id::text", [userID, friendlyName, secret])
    guard let id = created.scalar else { throw PGError(kind: .client, message: "no factor id") }
    return id
  }

  /// Factor `id` when it is `userID`'s, locked until the transaction ends; nil otherwise.
  func factor(id: String, userID: String) throws -> FactorRow? {
    let found = try connection.execute(
      "select secret, status, last_totp_step::text from auth.mfa_factors "
        + "where id = $1::uuid and user_id = $2::uuid for update", [id, userID])
    guard let row = found.rows.first, row.count == 3, let secret = row[0], let status = row[1]
    else { return nil }
    return FactorRow(secret: secret, status: status, lastStep: row[2].flatMap { Int64($0) })
  }

  /// A new challenge of `factorID` from `ipAddress`, and the factor's `last_challenged_at`;
  /// returns its id and when it expires (`expiry` seconds after it was made, since 1970).
  func createChallenge(factorID: String, ipAddress: String, expiry: Int) throws -> (
    id: String, expiresAt: Int
  ) {
    let created = try connection.execute(
      "insert into auth.mfa_challenges (factor_id, ip_address) values ($1::uuid, $2) "
        + "returning id::text, (extract(epoch from created_at)::bigint + $3::bigint)::text",
      [factorID, ipAddress, String(expiry)])
    _ = try connection.execute(
      "update auth.mfa_factors set last_challenged_at = now() where id = $1::uuid", [factorID])
    guard let row = created.rows.first, let id = row[0] else {
      throw PGError(kind: .client, message: "no challenge id")
    }
    return (id, Int(row[1] ?? "") ?? 0)
  }

  /// Challenge `id` (any text, as a request sends it) of `factorID`, locked until the
  /// transaction ends, spent when older than `expiry` seconds; nil when there is none.
  func challenge(id: String, factorID: String, expiry: Int) throws -> ChallengeRow? {
    let found = try connection.execute(
      "select ip_address, (verified_at is not null or created_at < now() - "
        + "make_interval(secs => $3::int))::text from auth.mfa_challenges "
        + "where id::text = $1 and factor_id = $2::uuid for update",
      [id, factorID, String(expiry)])
    guard let row = found.rows.first, row.count == 2 else { return nil }
    return ChallengeRow(ipAddress: row[0], isSpent: row[1] == "true")
  }

  /// A right code for challenge `challengeID` at TOTP step `step`: the challenge is spent, the
  /// factor verified (no code of that step or before is taken again), and the user's other
  /// unverified TOTP factors are dropped.
  func verify(factorID: String, challengeID: String, step: Int64, userID: String) throws {
    _ = try connection.execute(
      "update auth.mfa_challenges set verified_at = now() where id = $1::uuid", [challengeID])
    _ = try connection.execute(
      "update auth.mfa_factors set status = 'verified', last_totp_step = $2::bigint, "
        + "updated_at = now() where id = $1::uuid", [factorID, String(step)])
    _ = try connection.execute(
      "delete from auth.mfa_factors where user_id = $1::uuid and status = 'unverified' "
        + "and factor_type = 'totp'", [userID])
  }

  /// Removes factor `id` (its challenges go with it).
  func delete(id: String) throws {
    _ = try connection.execute("delete from auth.mfa_factors where id = $1::uuid", [id])
  }
}
