import SNMGateway
import SNMWire

extension AuthGateway {
  /// Keeps a flow state for `userID` when the request started a PKCE flow, for the mail of
  /// `kind` about to go: its link will carry the `pkce_` token.
  func startFlow(
    _ pkce: PKCEChallenge?, userID: String, kind: AuthMailKind, on connection: PGConnection
  ) throws {
    guard let pkce, let type = kind.verifyType else { return }
    let method = PKCEChallenge.method(verifyType: type)
    try FlowStateStore(connection).create(
      userID: userID, method: method, provider: method == "email/signup" ? "email" : method,
      challenge: pkce.challenge, challengeMethod: pkce.method)
  }

  /// `POST /token?grant_type=pkce` `{auth_code, code_verifier}`: the flow state's user signed
  /// in by the flow's method, the state spent. GoTrue's answers: 400 for a missing member,
  /// 404 flow_state_not_found, 422 flow_state_expired, 400 bad_code_verifier.
  func pkceGrant(_ body: JSONValue) throws -> JSONValue {
    let code = body["auth_code"]?.stringValue ?? ""
    let verifier = body["code_verifier"]?.stringValue ?? ""
    guard !code.isEmpty, !verifier.isEmpty else {
      throw AuthFailure.validationFailed(
        "invalid request: both auth code and code verifier should be non-empty")
    }
    guard !code.utf8.contains(0) else { throw AuthFailure.flowStateNotFound }
    let outcome: Result<JSONValue, AuthFailure> = try inTransaction { connection in
      let flows = FlowStateStore(connection)
      guard let state = try flows.take(authCode: code), let userID = state.userID else {
        return .failure(.flowStateNotFound)
      }
      if state.age > PKCEChallenge.expiry {
        return .failure(
          AuthFailure(
            status: 422, code: "flow_state_expired",
            message: "invalid flow state, flow state has expired"))
      }
      guard
        PKCEChallenge.matches(
          challenge: state.challenge, method: state.challengeMethod, verifier: verifier)
      else {
        return .failure(
          AuthFailure(
            status: 400, code: "bad_code_verifier",
            message: "code challenge does not match previously saved code verifier"))
      }
      if try AuthStore(connection).isBanned(userID: userID) { return .failure(.userBanned) }
      try flows.delete(id: state.id)
      try AuthStore(connection).recordSignIn(userID: userID)
      return .success(try createSession(userID: userID, method: state.method, on: connection))
    }
    return try outcome.get()
  }
}
