import Foundation
import SNMNetwork
import SNMWire

/// The GoTrue requests snm sends, as supabase-swift sends them: JSON bodies (always, `{}` for an
/// anonymous sign-up, since GoTrue rejects an empty body) and `X-Supabase-Api-Version: 2024-01-01`.
///
/// ```swift
/// let endpoint = AuthEndpoint.signInWithPassword(email: "a@b.c", password: pw).endpoint(base: url)
/// endpoint.url   // http://127.0.0.1:54321/auth/v1/token?grant_type=password
/// ```
/// The provider adds `apikey`, `Authorization` and `X-Client-Info` when sending.
public enum AuthEndpoint: Sendable, Hashable {
  case signUpAnonymously
  case signUp(email: String, password: String)
  case signInWithPassword(email: String, password: String)
  case refresh(refreshToken: String)
  case signOut(accessToken: String, scope: SignOutScope)
  case user(accessToken: String)

  /// The API version header value supabase-swift sends (it selects GoTrue's error format).
  public static let apiVersion = "2024-01-01"

  /// The request against the project at `base` (`http://127.0.0.1:54321`).
  public func endpoint(base: String) -> Endpoint {
    var headers: HTTPHeaders = ["X-Supabase-Api-Version": Self.apiVersion]
    var query: [Endpoint.QueryItem] = []
    let path: String
    var method = HTTPMethod.post
    var body: JSONValue? = nil
    switch self {
    case .signUpAnonymously:
      path = "/auth/v1/signup"
      body = .object(JSONObject())
    case .signUp(let email, let password):
      path = "/auth/v1/signup"
      body = ["email": .string(email), "password": .string(password)]
    case .signInWithPassword(let email, let password):
      path = "/auth/v1/token"
      query = [.init("grant_type", "password")]
      body = ["email": .string(email), "password": .string(password)]
    case .refresh(let refreshToken):
      path = "/auth/v1/token"
      query = [.init("grant_type", "refresh_token")]
      body = ["refresh_token": .string(refreshToken)]
    case .signOut(let accessToken, let scope):
      path = "/auth/v1/logout"
      query = [.init("scope", scope.rawValue)]
      headers["Authorization"] = "Bearer \(accessToken)"
    case .user(let accessToken):
      path = "/auth/v1/user"
      method = .get
      headers["Authorization"] = "Bearer \(accessToken)"
    }
    if body != nil { headers["Content-Type"] = "application/json" }
    return Endpoint(
      baseURL: base, path: path, method: method, query: query, headers: headers,
      body: body.map { Data($0.serializedBytes()) })
  }
}

extension AuthEndpoint: CustomStringConvertible {
  /// The call without its secrets: `POST /auth/v1/token?grant_type=password (a@b.c)`.
  public var description: String {
    switch self {
    case .signUpAnonymously: "POST /auth/v1/signup (anonymous)"
    case .signUp(let email, _): "POST /auth/v1/signup (\(email))"
    case .signInWithPassword(let email, _): "POST /auth/v1/token?grant_type=password (\(email))"
    case .refresh: "POST /auth/v1/token?grant_type=refresh_token"
    case .signOut(_, let scope): "POST /auth/v1/logout?scope=\(scope.rawValue)"
    case .user: "GET /auth/v1/user"
    }
  }
}
