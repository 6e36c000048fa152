import SNMGateway
import SNMLocalStorage
import SNMWire

extension Router {
  /// The gateway's answer to a request it does not admit (no or a bad API key, a refused token).
  struct Refusal: Error {
    var response: HTTPResponse

    /// 401 for an `apikey` that is not the project's, as Supabase's gateway answers it.
    static let invalidAPIKey = Refusal(
      response: .json(
        status: 401,
        #"{"message":"Invalid API key","hint":"Double check your Supabase `anon` or `service_role` API key."}"#
      ))
  }

  /// Who a Storage request runs as. Unlike REST and Auth, Storage's routes take no API key of
  /// the gateway (public and signed URLs are fetched bare); one that is sent must be the
  /// project's, and a new-format key is turned into its role's JWT as for the other services.
  /// The token then decides: the Bearer token when one is sent (one that does not verify is
  /// remembered, for the routes that refuse it), else the API key's own JWT, else nobody (anon,
  /// "not authenticated").
  func storageCaller(_ request: HTTPRequest) -> Result<(StorageCaller, HTTPRequest), Refusal> {
    var request = request
    var keyAuth: RequestAuth?
    if let apiKey = request.headers["apikey"] ?? request.queryValue("apikey") {
      guard let claims = keys.claims(forAPIKey: apiKey) else {
        return .failure(.invalidAPIKey)
      }
      if let roleToken = keys.jwt(forOpaqueKey: apiKey) {
        let bearer = request.headers["Authorization"].flatMap(RequestAuth.bearerToken)
        if request.headers["Authorization"] == nil || bearer == apiKey {
          request.headers["Authorization"] = "Bearer " + roleToken
        }
      }
      if let role = claims["role"]?.stringValue { keyAuth = keyAuths[role] }
    }
    guard let header = request.headers["Authorization"], let token = RequestAuth.bearerToken(header)
    else {
      if let keyAuth {
        return .success((StorageCaller(auth: keyAuth, isAuthenticated: true), request))
      }
      return .success((.nobody, request))
    }
    if let known = projectKeyAuth(token) {
      return .success((StorageCaller(auth: known, isAuthenticated: true), request))
    }
    do {
      let claims = try tokens.verify(
        token, signer: signer, now: now(), audience: nil, rules: .jose)
      let role = claims["role"]?.stringValue ?? "anon"
      guard assumableRoles.contains(role) else {
        return .success(
          (
            StorageCaller(
              auth: .anonymous, isAuthenticated: false,
              tokenError: "Access denied: Invalid role"), request
          ))
      }
      let auth = RequestAuth(role: role, claims: claims, isAnonymous: role == "anon")
      return .success((StorageCaller(auth: auth, isAuthenticated: true), request))
    } catch {
      return .success(
        (
          StorageCaller(
            auth: .anonymous, isAuthenticated: false, tokenError: Self.joseMessage(error)),
          request
        ))
    }
  }

  /// A refused token, in the words of the JWT library Storage uses (jose).
  static func joseMessage(_ error: JWTError) -> String {
    switch error {
    case .expired: "\"exp\" claim timestamp check failed"
    case .notYetValid: "\"nbf\" claim timestamp check failed"
    case .badSignature: "signature verification failed"
    case .unsupportedAlgorithm: "\"alg\" (Algorithm) Header Parameter value not allowed"
    case .wrongAudience: "unexpected \"aud\" claim value"
    case .claimNotNumber(let claim): "\"\(claim)\" claim must be a number"
    default: "Invalid Compact JWS"
    }
  }
}
