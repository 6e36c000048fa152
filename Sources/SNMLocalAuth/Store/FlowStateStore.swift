import SNMGateway

/// Every SQL statement about PKCE flow states (GoTrue's `auth.flow_state`): one is kept as a
/// flow with a `code_challenge` starts (a sign-up, magic link or recovery mail), its auth code is
/// handed out when the mailed link is followed, and the state is spent when the code and its
/// verifier come back to `POST /token?grant_type=pkce`. Named operations on the caller's
/// transaction, values only as parameters.
///
/// ```swift
/// let flows = FlowStateStore(connection)
/// try flows.create(userID: id, method: "recovery", provider: "recovery", challenge: c, challengeMethod: "s256")
/// let code = try flows.issueAuthCode(userID: id, method: "recovery")   // the redirect's ?code=
/// let state = try flows.take(authCode: code)                            // locked until commit
/// ```
/// Every operation throws `PGError` when Postgres refuses a statement.
struct FlowStateStore {
  let connection: PGConnection

  init(_ connection: PGConnection) {
    self.connection = connection
  }

  /// A flow state found by its auth code.
  struct FlowState: Equatable {
    var id: String
    var userID: String?
    /// GoTrue's authentication method: `email/signup`, `magiclink`, `recovery`, ...
    var method: String
    var challenge: String
    /// `s256` or `plain`.
    var challengeMethod: String
    /// Seconds since the state was made (or, for a magic link, since its code was handed out).
    var age: Int
  }

  /// Keeps a new PKCE flow state for `userID`; returns its auth code.
  @discardableResult
  func create(
    userID: String?, method: String, provider: String, challenge: String,
    challengeMethod: String
  ) throws -> String {
    let made = try connection.execute(
      "insert into auth.flow_state (user_id, auth_code, code_challenge_method, code_challenge, "
        + "provider_type, authentication_method) "
        + "values ($1::uuid, gen_random_uuid()::text, $2, $3, $4, $5) returning auth_code",
      [userID, challengeMethod, challenge, provider, method])
    return made.scalar ?? ""
  }

  /// The auth code of the user's newest flow state of `method`, marked as handed out now; nil
  /// when the user has none.
  func issueAuthCode(userID: String, method: String) throws -> String? {
    let issued = try connection.execute(
      "update auth.flow_state set auth_code_issued_at = now(), updated_at = now() "
        + "where id = (select id from auth.flow_state where user_id = $1::uuid "
        + "and authentication_method = $2 order by created_at desc limit 1) returning auth_code",
      [userID, method])
    return issued.scalar
  }

  /// The flow state whose auth code is `authCode`, locked until the transaction ends; nil when
  /// there is none.
  func take(authCode: String) throws -> FlowState? {
    let found = try connection.execute(
      "select id::text, user_id::text, authentication_method, code_challenge, "
        + "code_challenge_method, extract(epoch from now() - case when authentication_method = "
        + "'magiclink' and auth_code_issued_at is not null then auth_code_issued_at "
        + "else created_at end)::bigint::text from auth.flow_state where auth_code = $1 for update",
      [authCode])
    guard let row = found.rows.first, row.count == 6, let id = row[0], let method = row[2],
      let challenge = row[3], let challengeMethod = row[4]
    else { return nil }
    return FlowState(
      id: id, userID: row[1], method: method, challenge: challenge,
      challengeMethod: challengeMethod, age: row[5].flatMap(Int.init) ?? 0)
  }

  /// Spends a flow state.
  func delete(id: String) throws {
    _ = try connection.execute("delete from auth.flow_state where id = $1::uuid", [id])
  }
}
