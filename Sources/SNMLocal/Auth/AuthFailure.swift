import SNMWire

/// A GoTrue error: HTTP status, `error_code` and message.
///
/// ```swift
/// AuthFailure.invalidCredentials   // 400 invalid_credentials "Invalid login credentials"
/// ```
public struct AuthFailure: Error, Sendable, Equatable {
  public var status: Int
  public var code: String
  public var message: String
  /// Reasons for 422 weak_password (`length`, `characters`, `pwned`).
  public var weakPasswordReasons: [String]?

  public init(status: Int, code: String, message: String, weakPasswordReasons: [String]? = nil) {
    self.status = status
    self.code = code
    self.message = message
    self.weakPasswordReasons = weakPasswordReasons
  }
}

/// The two error body formats of GoTrue, chosen by `X-Supabase-Api-Version`.
public enum AuthErrorFormat: Sendable, Equatable {
  /// `{"code": 400, "error_code": "…", "msg": "…"}`
  case legacy
  /// `{"code": "…", "message": "…"}` for `X-Supabase-Api-Version: 2024-01-01` and later.
  case dated(String)

  public init(_ request: HTTPRequest) {
    if let version = request.headers["X-Supabase-Api-Version"]?.trimmingSpaces,
      version >= "2024-01-01", version.count == 10
    {
      self = .dated(version)
    } else {
      self = .legacy
    }
  }

  /// The error response in this format, with `x-sb-error-code`.
  public func response(_ failure: AuthFailure) -> HTTPResponse {
    var headers = HTTPHeaders()
    headers["x-sb-error-code"] = failure.code
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

  /// Adds the version echo to a successful response.
  public func decorate(_ response: HTTPResponse) -> HTTPResponse {
    guard case .dated(let version) = self else { return response }
    var copy = response
    copy.headers["X-Supabase-Api-Version"] = version
    return copy
  }
}
