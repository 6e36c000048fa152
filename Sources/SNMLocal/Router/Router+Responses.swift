import Foundation
import SNMWire

extension Router {
  /// PostgREST's answer to a refused JWT: 401 (403 for a role it may not assume) with
  /// `WWW-Authenticate`.
  static func jwtFailure(_ error: JWTError) -> HTTPResponse {
    var headers = HTTPHeaders()
    let status: Int
    switch error {
    case .roleNotAssumable:
      status = 403
    case .unknownRole:
      // A database error to PostgREST (22023), so its challenge carries no error description.
      status = 401
      headers["WWW-Authenticate"] = "Bearer"
    default:
      status = 401
      let description = error.message.replacingOccurrences(of: "\"", with: "'")
      headers["WWW-Authenticate"] =
        "Bearer error=\"invalid_token\", error_description=\"\(description)\""
    }
    headers["Proxy-Status"] = "PostgREST; error=\(error.postgrestCode)"
    return .json(
      status: status,
      .object([
        .init("code", .string(error.postgrestCode)), .init("details", .null),
        .init("hint", .null), .init("message", .string(error.message)),
      ]), headers: headers)
  }

  /// The answer to a CORS preflight, as Supabase's gateway gives it.
  static func preflight(_ request: HTTPRequest) -> HTTPResponse {
    var headers = HTTPHeaders()
    headers["Access-Control-Allow-Methods"] = "GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS"
    headers["Access-Control-Allow-Headers"] =
      request.headers["Access-Control-Request-Headers"]
      ?? "authorization, x-client-info, apikey, content-type, prefer, range"
    headers["Access-Control-Max-Age"] = "3600"
    return HTTPResponse(status: 200, headers: headers)
  }
}
