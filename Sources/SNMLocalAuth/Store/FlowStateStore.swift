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
struct FlowStateStore: AuthSQLStore {
  let connection: PGConnection

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
        + "code_challenge_method, extract(epoch from now() - case when authentication_method in "
        + "('magiclink', 'oauth') and auth_code_issued_at is not null then auth_code_issued_at "
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

  /// An OAuth provider's flow as `/authorize` started it, found by its id (the `state` the
  /// provider hands back).
  struct ProviderFlow: Equatable {
    var id: String
    var provider: String
    /// Where the browser goes at the end (`redirect_to`, checked at `/authorize`).
    var referrer: String
    /// Empty for the implicit flow (no `code_challenge` at `/authorize`).
    var challenge: String
    var authCode: String
    var userID: String?
    var age: Int
  }

  /// Keeps the flow `/authorize?provider=...` starts; returns its id (the provider's `state`).
  func createProviderFlow(provider: String, pkce: PKCEChallenge?, referrer: String) throws
    -> String
  {
    let made = try connection.execute(
      "insert into auth.flow_state (auth_code, code_challenge_method, code_challenge, "
        + "provider_type, authentication_method, referrer) "
        + "values (gen_random_uuid()::text, $1, $2, $3, 'oauth', $4) returning id::text",
      [pkce?.method ?? "", pkce?.challenge ?? "", provider, referrer])
    return made.scalar ?? ""
  }

  /// The OAuth flow with id `id`, locked until the transaction ends; nil when there is none.
  func providerFlow(id: String) throws -> ProviderFlow? {
    let found = try connection.execute(
      "select id::text, provider_type, coalesce(referrer, ''), code_challenge, auth_code, "
        + "user_id::text, extract(epoch from now() - created_at)::bigint::text "
        + "from auth.flow_state where id = $1::uuid and authentication_method = 'oauth' "
        + "for update", [id])
    guard let row = found.rows.first, row.count == 7, let id = row[0], let provider = row[1],
      let referrer = row[2], let challenge = row[3], let code = row[4]
    else { return nil }
    return ProviderFlow(
      id: id, provider: provider, referrer: referrer, challenge: challenge, authCode: code,
      userID: row[5], age: row[6].flatMap(Int.init) ?? 0)
  }

  /// A PKCE flow's user is known: its auth code is handed out now.
  func complete(id: String, userID: String) throws {
    _ = try connection.execute(
      "update auth.flow_state set user_id = $2::uuid, auth_code_issued_at = now(), "
        + "updated_at = now() where id = $1::uuid", [id, userID])
  }
}
