import SNMCrypto
import SNMGateway

extension AuthStore {
  /// What a refresh grant's token came to.
  enum Refresh: Equatable {
    /// The token was live (it is now revoked, `token` its child) or a reuse GoTrue allows (the
    /// parent of the active token, or revoked within the interval: `token` is the active one).
    case issued(userID: String, sessionID: String, token: String)
    /// No such token.
    case notFound
    /// Any other reuse of a revoked token: the whole session has been deleted.
    case reused
  }

  /// A new opaque refresh token: 24 lowercase hex digits.
  static func newRefreshToken() throws -> String {
    Crypto.hex(try Crypto.randomBytes(12))
  }

  /// A new live refresh token for `sessionID`, the child of `parent` when given.
  func issueRefreshToken(userID: String, sessionID: String, parent: String? = nil) throws
    -> String
  {
    let token = try Self.newRefreshToken()
    _ = try connection.execute(
      "insert into auth.refresh_tokens (token, user_id, session_id, parent) "
        + "values ($1, $2::uuid, $3::uuid, $4)", [token, userID, sessionID, parent])
    return token
  }

  /// Single-use rotation, with GoTrue's allowances for a client that failed to save the last
  /// answer: the parent of the active token, or any token revoked less than `reuseInterval`
  /// seconds ago, gives the active token again. Any other reuse deletes the whole session. Locks
  /// the token's row and its session's until the caller's transaction ends.
  func rotateRefreshToken(_ token: String, reuseInterval: Int) throws -> Refresh {
    let found = try connection.execute(
      "select r.user_id::text, r.session_id::text, r.revoked::text, "
        + "extract(epoch from now() - r.updated_at)::float8::text "
        + "from auth.refresh_tokens r join auth.sessions s on s.id = r.session_id "
        + "where r.token = $1 for update of r, s", [token])
    guard let row = found.rows.first, let userID = row[0], let sessionID = row[1] else {
      return .notFound
    }
    if row[2] == "true" {
      let age = row[3].flatMap(Double.init) ?? .infinity
      guard let active = try activeRefreshToken(sessionID: sessionID),
        active.parent == token || age < Double(reuseInterval)
      else {
        try deleteSession(id: sessionID)
        return .reused
      }
      return .issued(userID: userID, sessionID: sessionID, token: active.token)
    }
    _ = try connection.execute(
      "update auth.refresh_tokens set revoked = true, updated_at = now() where token = $1", [token])
    let child = try issueRefreshToken(userID: userID, sessionID: sessionID, parent: token)
    _ = try connection.execute(
      "update auth.sessions set refreshed_at = now(), updated_at = now() where id = $1::uuid",
      [sessionID])
    return .issued(userID: userID, sessionID: sessionID, token: child)
  }

  /// The session's live refresh token (the newest) and its parent, or nil.
  func activeRefreshToken(sessionID: String) throws -> (token: String, parent: String?)? {
    let active = try connection.execute(
      "select token, parent from auth.refresh_tokens where session_id = $1::uuid and not revoked "
        + "order by id desc limit 1", [sessionID])
    guard let row = active.rows.first, let token = row[0] else { return nil }
    return (token, row.count > 1 ? row[1] : nil)
  }

  /// Revokes every live refresh token of `sessionID` and issues a new one (a session whose
  /// assurance level changed).
  func replaceRefreshTokens(userID: String, sessionID: String) throws -> String {
    _ = try connection.execute(
      "update auth.refresh_tokens set revoked = true, updated_at = now() "
        + "where session_id = $1::uuid and not revoked", [sessionID])
    return try issueRefreshToken(userID: userID, sessionID: sessionID)
  }
}
