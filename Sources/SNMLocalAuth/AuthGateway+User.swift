import SNMGateway
import SNMWire

extension AuthGateway {
  /// The verified claims of the request's Bearer token, GoTrue's way: 401 without one, 403 bad_jwt.
  func bearerClaims(_ request: HTTPRequest) throws(AuthFailure) -> JSONValue {
    guard let header = request.headers["Authorization"],
      let token = RequestAuth.bearerToken(header),
      !token.isEmpty
    else { throw AuthFailure.noAuthorization }
    try LegacySecretRule.check(token, signingKey: signer.signingKey)
    do {
      return try signer.verify(token, now: now(), rules: .gotrue)
    } catch .expired {
      throw AuthFailure.badJWT("token has invalid claims: token is expired")
    } catch .claimNotNumber, .audienceNotStringOrArray {
      // golang-jwt cannot decode the claims into its typed fields.
      throw AuthFailure.badJWT("token is malformed: could not JSON decode claim")
    } catch {
      throw AuthFailure.badJWT(error.message)
    }
  }

  /// The user and session a token names; 403 when either is gone.
  func tokenSubject(_ claims: JSONValue, on connection: PGConnection) throws -> (
    AuthUserRow, String?
  ) {
    guard let sub = claims["sub"]?.stringValue, !sub.isEmpty else {
      throw AuthFailure(status: 403, code: "bad_jwt", message: "invalid claim: missing sub claim")
    }
    guard (try? Self.uuidParameter(sub, name: "sub")) != nil else {
      throw AuthFailure(
        status: 400, code: "bad_jwt", message: "invalid claim: sub claim must be a UUID")
    }
    guard let user = try AuthStore(connection).user(id: sub) else { throw AuthFailure.userNotFound }
    let sessionID = claims["session_id"]?.stringValue
    if let sessionID {
      guard try AuthStore(connection).sessionExists(id: sessionID, userID: sub) else {
        throw AuthFailure.sessionNotFound
      }
    }
    return (user, sessionID)
  }

  /// `GET /user`: the token's user.
  func user(_ request: HTTPRequest) throws -> HTTPResponse {
    let claims = try bearerClaims(request)
    let user = try pool.withConnection { connection in try tokenSubject(claims, on: connection).0 }
    return .json(status: 200, user.json)
  }

  /// `POST /logout?scope=global|local|others`: 204; revokes the chosen sessions.
  func logout(_ request: HTTPRequest) throws -> HTTPResponse {
    let claims = try bearerClaims(request)
    let scope = request.queryValue("scope") ?? "global"
    guard ["global", "local", "others"].contains(scope) else {
      throw AuthFailure.validationFailed("Unsupported logout scope \(Self.goQuoted(scope))")
    }
    try inTransaction { connection in
      let (user, sessionID) = try tokenSubject(claims, on: connection)
      let store = AuthStore(connection)
      switch scope {
      case "local":
        if let sessionID { try store.deleteSession(id: sessionID) }
      case "others":
        try store.deleteSessions(userID: user.id, except: sessionID)
      default:
        try store.deleteSessions(userID: user.id)
      }
    }
    return HTTPResponse(status: 204)
  }

  /// `text` as Go's `%q` writes it: in double quotes, `"` and `\` escaped, control characters
  /// as escapes.
  static func goQuoted(_ text: String) -> String {
    "\"" + goString.escape(text) + "\""
  }

  static let goString = ScalarEscaping(
    ["\"": "\\\"", "\\": "\\\\", "\n": "\\n", "\t": "\\t", "\r": "\\r"],
    other: { $0 < 0x20 || $0 == 0x7F ? "\\x" + ScalarEscaping.hex($0, digits: 2) : nil })
}
