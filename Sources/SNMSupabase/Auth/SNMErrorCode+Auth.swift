import SNMNetwork

/// A GoTrue `error_code`: the same open set as PostgREST's and Postgres' codes, so one type serves
/// both layers (`SupabaseAuthError.code`, `SNMServerError.code`).
///
/// ```swift
/// if error.code == .refreshTokenAlreadyUsed { ... }
/// let custom: AuthErrorCode = "mfa_verification_failed"
/// ```
public typealias AuthErrorCode = SNMErrorCode

// GoTrue's codes (supabase-swift `Sources/Auth/AuthError.swift`).
extension SNMErrorCode {
  /// The answer named no code (a proxy's HTML page, an empty body).
  public static let unknown: SNMErrorCode = "unknown"
  /// Wrong email or password, or no such user.
  public static let invalidCredentials: SNMErrorCode = "invalid_credentials"
  /// The user has not confirmed the email address yet.
  public static let emailNotConfirmed: SNMErrorCode = "email_not_confirmed"
  /// A user with this email already exists.
  public static let userAlreadyExists: SNMErrorCode = "user_already_exists"
  /// `email_exists`, the code newer GoTrue versions send for an existing email.
  public static let emailExists: SNMErrorCode = "email_exists"
  /// The password is too short or too simple (422; `weak_password.reasons` says why).
  public static let weakPassword: SNMErrorCode = "weak_password"
  /// The email address is not valid.
  public static let emailAddressInvalid: SNMErrorCode = "email_address_invalid"
  /// The request is malformed (a short refresh token, an unknown logout scope).
  public static let validationFailed: SNMErrorCode = "validation_failed"
  /// The body is not JSON.
  public static let badJSON: SNMErrorCode = "bad_json"
  /// Anonymous sign-ins are turned off for the project.
  public static let anonymousProviderDisabled: SNMErrorCode = "anonymous_provider_disabled"
  /// Sign-ups are turned off for the project.
  public static let signupDisabled: SNMErrorCode = "signup_disabled"
  /// The refresh token is unknown to the server.
  public static let refreshTokenNotFound: SNMErrorCode = "refresh_token_not_found"
  /// The refresh token was spent already (outside the reuse interval): the session is revoked.
  public static let refreshTokenAlreadyUsed: SNMErrorCode = "refresh_token_already_used"
  /// The session behind the token was ended (logout elsewhere).
  public static let sessionNotFound: SNMErrorCode = "session_not_found"
  /// The session timed out or reached its maximum lifetime.
  public static let sessionExpired: SNMErrorCode = "session_expired"
  /// No `Authorization: Bearer` header where one is needed.
  public static let noAuthorization: SNMErrorCode = "no_authorization"
  /// The access token is malformed, badly signed or expired.
  public static let badJWT: SNMErrorCode = "bad_jwt"
  /// The user in the token's `sub` claim no longer exists.
  public static let userNotFound: SNMErrorCode = "user_not_found"
  /// Too many requests (429).
  public static let overRequestRateLimit: SNMErrorCode = "over_request_rate_limit"

  /// Codes that mean the stored session can never be refreshed again: snm signs out
  /// (as supabase-swift does in `SessionManager`).
  public static let endingSession: Set<SNMErrorCode> = [
    .refreshTokenNotFound, .refreshTokenAlreadyUsed, .sessionNotFound, .sessionExpired,
  ]
}

// The codes of the account, MFA and admin flows (GoTrue's `internal/api/apierrors/errorcode.go`).
extension SNMErrorCode {
  /// A password change needs the nonce `GET /reauthenticate` sends.
  public static let reauthenticationNeeded: SNMErrorCode = "reauthentication_needed"
  /// The nonce is wrong or expired.
  public static let reauthenticationNotValid: SNMErrorCode = "reauthentication_not_valid"
  /// The emailed code is wrong or expired.
  public static let otpExpired: SNMErrorCode = "otp_expired"
  /// The TOTP code did not match.
  public static let mfaVerificationFailed: SNMErrorCode = "mfa_verification_failed"
  /// The factor does not exist (or is another user's).
  public static let mfaFactorNotFound: SNMErrorCode = "mfa_factor_not_found"
  /// The request needs an aal2 session.
  public static let insufficientAAL: SNMErrorCode = "insufficient_aal"
  /// The key is not allowed to do this (an admin route without the service key).
  public static let notAdmin: SNMErrorCode = "not_admin"
}
