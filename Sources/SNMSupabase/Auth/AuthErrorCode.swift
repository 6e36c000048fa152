/// A GoTrue `error_code`: an open set, so codes this file does not name still compare and print.
///
/// ```swift
/// if error.code == .refreshTokenAlreadyUsed { ... }
/// let custom: AuthErrorCode = "mfa_verification_failed"
/// ```
public struct AuthErrorCode: RawRepresentable, Sendable, Hashable, ExpressibleByStringLiteral,
  CustomStringConvertible
{
  public let rawValue: String

  public init(rawValue: String) { self.rawValue = rawValue }
  public init(_ rawValue: String) { self.rawValue = rawValue }
  public init(stringLiteral value: String) { self.rawValue = value }

  public var description: String { rawValue }

  /// The answer named no code (a proxy's HTML page, an empty body).
  public static let unknown: AuthErrorCode = "unknown"
  /// Wrong email or password, or no such user.
  public static let invalidCredentials: AuthErrorCode = "invalid_credentials"
  /// The user has not confirmed the email address yet.
  public static let emailNotConfirmed: AuthErrorCode = "email_not_confirmed"
  /// A user with this email already exists.
  public static let userAlreadyExists: AuthErrorCode = "user_already_exists"
  /// `email_exists`, the code newer GoTrue versions send for an existing email.
  public static let emailExists: AuthErrorCode = "email_exists"
  /// The password is too short or too simple (422; `weak_password.reasons` says why).
  public static let weakPassword: AuthErrorCode = "weak_password"
  /// The email address is not valid.
  public static let emailAddressInvalid: AuthErrorCode = "email_address_invalid"
  /// The request is malformed (a short refresh token, an unknown logout scope).
  public static let validationFailed: AuthErrorCode = "validation_failed"
  /// The body is not JSON.
  public static let badJSON: AuthErrorCode = "bad_json"
  /// Anonymous sign-ins are turned off for the project.
  public static let anonymousProviderDisabled: AuthErrorCode = "anonymous_provider_disabled"
  /// Sign-ups are turned off for the project.
  public static let signupDisabled: AuthErrorCode = "signup_disabled"
  /// The refresh token is unknown to the server.
  public static let refreshTokenNotFound: AuthErrorCode = "refresh_token_not_found"
  /// The refresh token was spent already (outside the reuse interval): the session is revoked.
  public static let refreshTokenAlreadyUsed: AuthErrorCode = "refresh_token_already_used"
  /// The session behind the token was ended (logout elsewhere).
  public static let sessionNotFound: AuthErrorCode = "session_not_found"
  /// The session timed out or reached its maximum lifetime.
  public static let sessionExpired: AuthErrorCode = "session_expired"
  /// No `Authorization: Bearer` header where one is needed.
  public static let noAuthorization: AuthErrorCode = "no_authorization"
  /// The access token is malformed, badly signed or expired.
  public static let badJWT: AuthErrorCode = "bad_jwt"
  /// The user in the token's `sub` claim no longer exists.
  public static let userNotFound: AuthErrorCode = "user_not_found"
  /// Too many requests (429).
  public static let overRequestRateLimit: AuthErrorCode = "over_request_rate_limit"

  /// Codes that mean the stored session can never be refreshed again: snm signs out
  /// (as supabase-swift does in `SessionManager`).
  public static let endingSession: Set<AuthErrorCode> = [
    .refreshTokenNotFound, .refreshTokenAlreadyUsed, .sessionNotFound, .sessionExpired,
  ]
}
