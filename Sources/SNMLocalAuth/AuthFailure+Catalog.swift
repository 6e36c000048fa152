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
    status: 400, code: "validation_failed", message: "Signup requires a valid password")
  static let passwordTooLong = AuthFailure(
    status: 400, code: "validation_failed",
    message: "Password cannot be longer than \(AuthSettings.maximumPasswordBytes) characters")
  static let passwordHasNUL = AuthFailure(
    status: 400, code: "validation_failed", message: "Password cannot contain a NUL character")
  static let userBanned = AuthFailure(status: 400, code: "user_banned", message: "User is banned")
  static let emailNotConfirmed = AuthFailure(
    status: 400, code: "email_not_confirmed", message: "Email not confirmed")
  static let otpExpired = AuthFailure(
    status: 403, code: "otp_expired", message: "Token has expired or is invalid")
  static let linkExpired = AuthFailure(
    status: 403, code: "otp_expired", message: "Email link is invalid or has expired")
  static let signupDisabled = AuthFailure(
    status: 422, code: "signup_disabled", message: "Signups not allowed for this instance")
  static let emailExists = AuthFailure(
    status: 422, code: "email_exists",
    message: "A user with this email address has already been registered")
  static let notAdmin = AuthFailure(status: 403, code: "not_admin", message: "User not allowed")
  static let adminUserNotFound = AuthFailure(
    status: 404, code: "user_not_found", message: "User not found")
  static let factorNotFound = AuthFailure(
    status: 404, code: "mfa_factor_not_found", message: "Factor not found")
  static let reauthenticationNeeded = AuthFailure(
    status: 400, code: "reauthentication_needed",
    message: "Password update requires reauthentication")
  static let samePassword = AuthFailure(
    status: 422, code: "same_password",
    message: "New password should be different from the old password.")
  /// Any `/sso` request: GoTrue's answer when SAML is off, before the route's own checks.
  static let samlDisabled = AuthFailure(
    status: 404, code: "saml_provider_disabled", message: "SAML 2.0 is disabled")
  /// Any `/user/identities` request by a signed-in user when manual linking is off.
  static let manualLinkingDisabled = AuthFailure(
    status: 404, code: "manual_linking_disabled", message: "Manual linking is disabled")
  static let flowStateNotFound = AuthFailure(
    status: 404, code: "flow_state_not_found",
    message: "invalid flow state, no valid flow state found")
  static let methodNotAllowed = AuthFailure(
    status: 405, code: "method_not_allowed", message: "Method Not Allowed")
  /// An unknown route: GoTrue's router answers it in plain text (`AuthGateway.notFoundResponse`).
  static let notFound = AuthFailure(status: 404, code: "not_found", message: "404 page not found")
  /// A request over its rate limit; `retryAfter` whole seconds until its bucket has a token.
  static func overRateLimit(retryAfter: Int) -> AuthFailure {
    AuthFailure(
      status: 429, code: "over_request_rate_limit", message: "Request rate limit reached",
      retryAfter: retryAfter)
  }

  /// A request value Postgres cannot take as text or JSON (a NUL character, a bad escape): the
  /// client's mistake, so 400 rather than the database's 500.
  static func invalidValue(_ detail: String) -> AuthFailure {
    AuthFailure(status: 400, code: "validation_failed", message: "Invalid request: \(detail)")
  }

  /// GoTrue's `NewOAuthError(error, description)`: 400 `{"error": ..., "error_description": ...}`.
  static func oauth(_ error: String, _ description: String) -> AuthFailure {
    var failure = AuthFailure(status: 400, code: error, message: description)
    failure.isOAuthError = true
    return failure
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
