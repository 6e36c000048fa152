import Foundation
import SNMWire

extension HTTPResponse {
  /// PostgREST's answer to a refused JWT: 401 (403 for a role it may not assume) with
  /// `WWW-Authenticate`.
  package static func jwtFailure(_ error: JWTError) -> HTTPResponse {
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
}
