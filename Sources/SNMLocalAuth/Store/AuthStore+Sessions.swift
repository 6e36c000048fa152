import SNMGateway

extension AuthStore {
  /// A session's assurance level and sign-in method (its first `amr` entry).
  struct SessionRow: Equatable {
    var aal: String
    var method: String
    var signedInAt: Int?
  }

  /// A new session for `userID` signed in by `method` at `issuedAt` (seconds since 1970), with
  /// its first refresh token.
  func createSession(userID: String, method: String, at issuedAt: Int) throws -> (
    sessionID: String, refreshToken: String
  ) {
    let session = try connection.execute(
      "insert into auth.sessions (user_id, amr_method, amr_timestamp) values ($1::uuid, $2, $3) "
        + "returning id::text", [userID, method, String(issuedAt)])
    guard let sessionID = session.scalar else {
      throw PGError(kind: .client, message: "no session id")
    }
    let token = try issueRefreshToken(userID: userID, sessionID: sessionID)
    return (sessionID, token)
  }

  /// The session with `id`, or nil.
  func session(id: String) throws -> SessionRow? {
    let found = try connection.execute(
      "select aal, amr_method, amr_timestamp::text from auth.sessions where id = $1::uuid", [id])
    guard let row = found.rows.first, row.count == 3 else { return nil }
    return SessionRow(
      aal: row[0] ?? "aal1", method: row[1] ?? "password", signedInAt: row[2].flatMap { Int($0) })
  }

  /// The factors verified in session `id` since its sign-in: method and time, in no order.
  func amrClaims(sessionID: String) throws -> [(method: String, at: Int)] {
    let claims = try connection.execute(
      "select authentication_method, extract(epoch from created_at)::bigint::text "
        + "from auth.mfa_amr_claims where session_id = $1::uuid", [sessionID])
    return claims.rows.compactMap { row in
      guard row.count == 2 else { return nil }
      return (row[0] ?? "", Int(row[1] ?? "") ?? 0)
    }
  }

  /// Whether session `id` (as a token names it: any text) exists and is `userID`'s.
  func sessionExists(id: String, userID: String) throws -> Bool {
    let session = try connection.execute(
      "select 1 from auth.sessions where id::text = $1 and user_id = $2::uuid", [id, userID])
    return !session.rows.isEmpty
  }

  /// The assurance level of session `id` (any text), `aal1` when there is none.
  func aal(sessionID: String?) throws -> String {
    guard let sessionID else { return "aal1" }
    let found = try connection.execute(
      "select aal from auth.sessions where id::text = $1", [sessionID])
    return found.scalar ?? "aal1"
  }

  /// Session `id`'s (any text) assurance level and whether it began more than 24 hours ago
  /// (`PUT /user`'s test for a password change without a nonce); nil when there is none.
  func sessionStanding(id: String) throws -> (aal: String, isOlderThanADay: Bool)? {
    let found = try connection.execute(
      "select aal, (created_at < now() - interval '24 hours')::text from auth.sessions "
        + "where id::text = $1", [id])
    guard let row = found.rows.first, row.count == 2 else { return nil }
    return (row[0] ?? "aal1", row[1] != "false")
  }

  /// Ends session `id` (any text) and its refresh tokens.
  func deleteSession(id: String) throws {
    _ = try connection.execute("delete from auth.sessions where id::text = $1", [id])
  }

  /// Ends every session of `userID`, but `except` when given.
  func deleteSessions(userID: String, except: String? = nil) throws {
    _ = try connection.execute(
      "delete from auth.sessions where user_id = $1::uuid and id::text <> coalesce($2, '')",
      [userID, except])
  }

  /// A factor verified in session `sessionID`: it goes to aal2 with a `totp` entry in its `amr`,
  /// and the user's other aal1 sessions end.
  func elevate(sessionID: String, factorID: String, userID: String) throws {
    _ = try connection.execute(
      "update auth.sessions set aal = 'aal2', factor_id = $2::uuid, updated_at = now() "
        + "where id = $1::uuid", [sessionID, factorID])
    _ = try connection.execute(
      "insert into auth.mfa_amr_claims (session_id, authentication_method) values ($1::uuid, "
        + "'totp') on conflict (session_id, authentication_method) do update set created_at = now()",
      [sessionID])
    _ = try connection.execute(
      "delete from auth.sessions where user_id = $1::uuid and aal <> 'aal2'", [userID])
  }
}
