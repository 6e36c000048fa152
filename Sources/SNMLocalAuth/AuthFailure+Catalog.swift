/// GoTrue's failures, word for word: one entry a failure that stands in more than one place or
/// has a name of its own, one constructor a family whose message varies.
extension AuthFailure {
  /// A row of the catalog: status, `error_code`, message.
  private init(_ status: Int, _ code: String, _ message: String) {
    self.init(status: status, code: code, message: message)
  }

  /// GoTrue's `validation_failed`: a request's values refused in GoTrue's words; 400 unless
  /// GoTrue answers 422 (or 404, for an id in the path) there.
  static func validationFailed(_ message: String, status: Int = 400) -> AuthFailure {
    Self(status, "validation_failed", message)
  }

  static let refreshTokenInvalid = validationFailed("Refresh token is not valid")
  static let invalidEmail = validationFailed("Unable to validate email address: invalid format")
  /// GoTrue's `validatePhone` (`PhoneNumber.normalized`).
  static let invalidPhone = validationFailed("Invalid phone number format (E.164 required)")
  static let passwordRequired = validationFailed("Signup requires a valid password")
  static let passwordTooLong = validationFailed(
    "Password cannot be longer than \(AuthSettings.maximumPasswordBytes) characters")
  static let passwordHasNUL = validationFailed("Password cannot contain a NUL character")
  static let verifyTypeMissing = validationFailed("Verify requires a verification type")
  static let verifyTypeUnsupported = validationFailed("Unsupported verification type")

  /// A request value Postgres cannot take as text or JSON (a NUL character, a bad escape): the
  /// client's mistake, so 400 rather than the database's 500.
  static func invalidValue(_ detail: String) -> AuthFailure {
    validationFailed("Invalid request: \(detail)")
  }

  /// 400 bad_json: a body (or a member of it, `detail`) that is not the JSON GoTrue reads.
  static func badJSON(_ detail: String? = nil) -> AuthFailure {
    let message = "Could not parse request body as JSON"
    return Self(400, "bad_json", detail.map { message + ": " + $0 } ?? message)
  }

  /// 500 unexpected_failure: the server's own failure, `message` saying what it was.
  static func unexpectedFailure(_ message: String) -> AuthFailure {
    Self(500, "unexpected_failure", message)
  }

  static let internalError = unexpectedFailure("Internal server error")

  /// A sign-in, sign-up or change by phone while the phone provider is off (GoTrue's words and
  /// status differ by route).
  static func phoneProviderDisabled(_ message: String, status: Int = 400) -> AuthFailure {
    Self(status, "phone_provider_disabled", message)
  }

  static let phoneLoginsDisabled = phoneProviderDisabled("Phone logins are disabled")
  static let phoneNotConfirmed = Self(400, "phone_not_confirmed", "Phone not confirmed")
  /// `/otp` for an address or number with no user, when it may not sign up.
  static let otpSignupsDisabled = Self(422, "otp_disabled", "Signups not allowed for otp")

  static let invalidCredentials = Self(400, "invalid_credentials", "Invalid login credentials")
  static let refreshTokenNotFound = Self(
    400, "refresh_token_not_found", "Invalid Refresh Token: Refresh Token Not Found")
  static let refreshTokenAlreadyUsed = Self(
    400, "refresh_token_already_used", "Invalid Refresh Token: Already Used")
  static let noAuthorization = Self(
    401, "no_authorization", "This endpoint requires a valid Bearer token")
  static let userNotFound = Self(403, "user_not_found", "User from sub claim in JWT does not exist")
  static let sessionNotFound = Self(
    403, "session_not_found", "Session from session_id claim in JWT does not exist")
  static let userAlreadyExists = Self(422, "user_already_exists", "User already registered")
  static let userBanned = Self(400, "user_banned", "User is banned")
  static let emailNotConfirmed = Self(400, "email_not_confirmed", "Email not confirmed")
  static let otpExpired = Self(403, "otp_expired", "Token has expired or is invalid")
  static let linkExpired = Self(403, "otp_expired", "Email link is invalid or has expired")
  static let signupDisabled = Self(422, "signup_disabled", "Signups not allowed for this instance")
  static let emailExists = Self(
    422, "email_exists", "A user with this email address has already been registered")
  static let notAdmin = Self(403, "not_admin", "User not allowed")
  static let adminUserNotFound = Self(404, "user_not_found", "User not found")
  static let factorNotFound = Self(404, "mfa_factor_not_found", "Factor not found")
  static let reauthenticationNeeded = Self(
    400, "reauthentication_needed", "Password update requires reauthentication")
  static let samePassword = Self(
    422, "same_password", "New password should be different from the old password.")
  /// Any `/sso` request: GoTrue's answer when SAML is off, before the route's own checks.
  static let samlDisabled = Self(404, "saml_provider_disabled", "SAML 2.0 is disabled")
  /// Any `/user/identities` request by a signed-in user when manual linking is off.
  static let manualLinkingDisabled = Self(
    404, "manual_linking_disabled", "Manual linking is disabled")
  static let flowStateNotFound = Self(
    404, "flow_state_not_found", "invalid flow state, no valid flow state found")
  static let methodNotAllowed = Self(405, "method_not_allowed", "Method Not Allowed")
  /// An unknown route: GoTrue's router answers it in plain text (`AuthGateway.notFoundResponse`).
  static let notFound = Self(404, "not_found", "404 page not found")
  /// A request over its rate limit; `retryAfter` whole seconds until its bucket has a token.
  static func overRateLimit(retryAfter: Int) -> AuthFailure {
    AuthFailure(
      status: 429, code: "over_request_rate_limit", message: "Request rate limit reached",
      retryAfter: retryAfter)
  }

  /// GoTrue's `NewOAuthError(error, description)`: 400 `{"error": ..., "error_description": ...}`.
  static func oauth(_ error: String, _ description: String) -> AuthFailure {
    var failure = AuthFailure(status: 400, code: error, message: description)
    failure.isOAuthError = true
    return failure
  }

  static func badJWT(_ detail: String) -> AuthFailure {
    Self(403, "bad_jwt", "invalid JWT: unable to parse or verify signature, \(detail)")
  }

  static func weakPassword(minimum: Int) -> AuthFailure {
    AuthFailure(
      status: 422, code: "weak_password",
      message: "Password should be at least \(minimum) characters.", weakPasswordReasons: ["length"]
    )
  }
}
