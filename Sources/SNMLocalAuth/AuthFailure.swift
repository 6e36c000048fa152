import SNMGateway
import SNMWire

/// A GoTrue error: HTTP status, `error_code` and message.
///
/// ```swift
/// AuthFailure.invalidCredentials   // 400 invalid_credentials "Invalid login credentials"
/// AuthFailure(status: 422, code: "same_password", message: "...")   // the memberwise init
/// ```
/// GoTrue's failures are named in `AuthFailure+Catalog.swift`.
public struct AuthFailure: Error, Sendable, Equatable {
  public var status: Int
  public var code: String
  public var message: String
  /// Reasons for 422 weak_password (`length`, `characters`, `pwned`).
  public var weakPasswordReasons: [String]?
  /// Whole seconds until a refused request would be admitted (a 429's `Retry-After`).
  public var retryAfter: Int?
  /// GoTrue's `OAuthError` (the id_token grant's): always 400, its body
  /// `{"error": code, "error_description": message}` in every API version, no error code header.
  public var isOAuthError = false
}

/// The two error body formats of GoTrue, chosen by `X-Supabase-Api-Version`.
public enum AuthErrorFormat: Sendable, Equatable {
  /// `{"code": 400, "error_code": "…", "msg": "…"}`
  case legacy
  /// `{"code": "…", "message": "…"}` for `X-Supabase-Api-Version: 2024-01-01` and later (the
  /// version GoTrue names is always 2024-01-01, its latest).
  case dated(String)

  /// GoTrue's `DetermineClosestAPIVersion`: a date (`YYYY-MM-DD`) on or after 2024-01-01 is
  /// that version; anything else (absent, earlier, not a date) the legacy format.
  public init(_ request: HTTPRequest) {
    let version = request.headers["X-Supabase-Api-Version"]?.trimmingSpaces ?? ""
    let parts = version.split(separator: "-", omittingEmptySubsequences: false)
    guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
      let month = Int(parts[1]), let day = Int(parts[2]), Int(parts[0]) != nil,
      (1...12).contains(month), (1...31).contains(day), version >= "2024-01-01"
    else {
      self = .legacy
      return
    }
    self = .dated("2024-01-01")
  }

  /// The error response in this format, with `x-sb-error-code` (and `Retry-After` when the
  /// failure knows when to come back); the dated format also says
  /// `X-Supabase-Api-Version: 2024-01-01`, as GoTrue's errors do.
  public func response(_ failure: AuthFailure) -> HTTPResponse {
    if failure.isOAuthError {
      return .json(
        status: 400,
        .object([
          .init("error", .string(failure.code)),
          .init("error_description", .string(failure.message)),
        ]))
    }
    var headers = HTTPHeaders()
    headers["x-sb-error-code"] = failure.code
    if let seconds = failure.retryAfter { headers["Retry-After"] = String(seconds) }
    var members: [JSONObject.Member]
    switch self {
    case .legacy:
      members = [
        .init("code", .int(failure.status)), .init("error_code", .string(failure.code)),
        .init("msg", .string(failure.message)),
      ]
    case .dated(let version):
      headers["X-Supabase-Api-Version"] = version
      members = [.init("code", .string(failure.code)), .init("message", .string(failure.message))]
    }
    if let reasons = failure.weakPasswordReasons {
      members.append(
        .init("weak_password", .object([.init("reasons", .array(reasons.map { .string($0) }))])))
    }
    return .json(status: failure.status, .object(members), headers: headers)
  }
}
