extension AuthFailure {
  static let invalidCredentials = AuthFailure(
    status: 400, code: "invalid_credentials", message: "Invalid login credentials")
  static let refreshTokenInvalid = AuthFailure(
    status: 400, code: "validation_failed", message: "Refresh token is not valid")
  static let refreshTokenNotFound = AuthFailure(
    status: 400, code: "refresh_token_not_found",
    message: "Invalid Refresh Token: Refresh Token Not Found")
  static let refreshTokenAlreadyUsed = AuthFailure(
    status: 400, code: "refresh_token_already_used", message: "Invalid Refresh Token: Already Used")
  static let noAuthorization = AuthFailure(
    status: 401, code: "no_authorization", message: "This endpoint requires a valid Bearer token")
  static let userNotFound = AuthFailure(
    status: 403, code: "user_not_found", message: "User from sub claim in JWT does not exist")
  static let sessionNotFound = AuthFailure(
    status: 403, code: "session_not_found",
    message: "Session from session_id claim in JWT does not exist")
  static let userAlreadyExists = AuthFailure(
    status: 422, code: "user_already_exists", message: "User already registered")
  static let invalidEmail = AuthFailure(
    status: 400, code: "validation_failed",
    message: "Unable to validate email address: invalid format")
  static let passwordRequired = AuthFailure(
    status: 422, code: "validation_failed", message: "Signup requires a valid password")
  static let passwordTooLong = AuthFailure(
    status: 400, code: "validation_failed",
    message: "Password cannot be longer than \(AuthSettings.maximumPasswordBytes) characters")
  static let passwordHasNUL = AuthFailure(
    status: 400, code: "validation_failed", message: "Password cannot contain a NUL character")
  static let overRateLimit = AuthFailure(
    status: 429, code: "over_request_rate_limit", message: "Request rate limit reached")

  /// A request value Postgres cannot take as text or JSON (a NUL character, a bad escape): the
  /// client's mistake, so 400 rather than the database's 500.
  static func invalidValue(_ detail: String) -> AuthFailure {
    AuthFailure(status: 400, code: "validation_failed", message: "Invalid request: \(detail)")
  }

  static func badJWT(_ detail: String) -> AuthFailure {
    AuthFailure(
      status: 403, code: "bad_jwt",
      message: "invalid JWT: unable to parse or verify signature, \(detail)")
  }

  static func weakPassword(minimum: Int) -> AuthFailure {
    AuthFailure(
      status: 422, code: "weak_password",
      message: "Password should be at least \(minimum) characters.", weakPasswordReasons: ["length"]
    )
  }
}
