/// How the Auth gateway issues tokens and which account flows it allows: the Supabase CLI's
/// `config.toml` `[auth]` settings the local project has.
///
/// ```swift
/// var settings = AuthSettings(issuer: "http://127.0.0.1:54321/auth/v1", jwtExpiry: 3600)
/// settings.confirmEmail = true      // `snm local start --confirm-email`
/// ```
public struct AuthSettings: Sendable, Equatable {
  /// The `iss` claim of access tokens, and the base of the links mails carry (GoTrue's
  /// `API_EXTERNAL_URL`).
  public var issuer: String
  /// Access-token lifetime in seconds (`--jwt-expiry`, GoTrue's `GOTRUE_JWT_EXP`, default 3600).
  public var jwtExpiry: Int
  /// Seconds after a refresh during which the previous refresh token still answers with the
  /// current session (GoTrue's `REFRESH_TOKEN_REUSE_INTERVAL`, default 10).
  public var refreshReuseInterval: Int
  /// Shortest password accepted at signup (GoTrue's default 6).
  public var minimumPasswordLength: Int
  /// Requests one client address may make (`--auth-rate-limit`, GoTrue's defaults).
  public var rateLimits: AuthRateLimits
  /// A new e-mail user must follow the confirmation mail before signing in
  /// (`--confirm-email`; `[auth.email] enable_confirmations`; GoTrue's `MAILER_AUTOCONFIRM` off).
  public var confirmEmail = false
  /// New users may sign up (`--no-signup` turns it off; `[auth] enable_signup`).
  public var signupEnabled = true
  /// Anonymous sign-ins are allowed (`--no-anonymous`; `[auth] enable_anonymous_sign_ins`).
  public var anonymousEnabled = true
  /// A password change needs a recent sign-in or the nonce of a reauthentication mail
  /// (`--secure-password-change`; `[auth.email] secure_password_change`).
  public var securePasswordChange = false
  /// An e-mail change is confirmed at both addresses (`[auth.email] double_confirm_changes`, on).
  public var doubleConfirmChanges = true
  /// How long a mailed code or link stays valid, in seconds (`[auth.email] otp_expiry`, 3600).
  public var otpExpiry = 3600
  /// Users may sign up and in with a phone number (`--phone-signup`; `[auth.sms] enable_signup`,
  /// GoTrue's `EXTERNAL_PHONE_ENABLED`). There is no SMS provider: texts go to the local inbox.
  public var phoneEnabled = false
  /// A new phone user must verify the texted code before signing in (`--confirm-phone`;
  /// `[auth.sms] enable_confirmations`; GoTrue's `SMS_AUTOCONFIRM` off).
  public var confirmPhone = false
  /// Fixed codes for phone numbers (digits only, as GoTrue stores them): such a number is sent no
  /// text and its code is always this one (`--sms-test-otp PHONE=CODE`; `[auth.sms.test_otp]`).
  public var smsTestOTPs: [String: String] = [:]
  /// Seconds before another text may go to one number (`[auth.sms] max_frequency`, the CLI's 5s).
  public var smsMaxFrequency = 5
  /// How long a texted code stays valid, in seconds (GoTrue's `SMS_OTP_EXP`, 60).
  public var smsOTPExpiry = 60
  /// Sign in with Apple by id_token, verified against the project's test issuer (`--apple`;
  /// `[auth.external.apple] enabled`; GoTrue's `EXTERNAL_APPLE_ENABLED`).
  public var appleEnabled = false
  /// Sign in with GitHub by the OAuth redirect flow, the test issuer standing in for GitHub
  /// (`--github`; `[auth.external.github] enabled`).
  public var githubEnabled = false
  /// The OAuth 2.1 server's admin client routes answer (`--oauth-server`;
  /// `[auth.oauth_server] enabled`; GoTrue's `OAUTH_SERVER_ENABLED`, off by default).
  public var oauthServerEnabled = false
  /// Where verify links send the browser when they name no `redirect_to` (`[auth] site_url`).
  public var siteURL: String

  public init(
    issuer: String, jwtExpiry: Int = 3600, refreshReuseInterval: Int = 10,
    minimumPasswordLength: Int = 6, rateLimits: AuthRateLimits = AuthRateLimits()
  ) {
    self.issuer = issuer
    self.jwtExpiry = jwtExpiry
    self.refreshReuseInterval = refreshReuseInterval
    self.minimumPasswordLength = minimumPasswordLength
    self.rateLimits = rateLimits
    self.siteURL = issuer.hasSuffix("/auth/v1") ? String(issuer.dropLast(8)) : issuer
  }

  /// Longest password bcrypt reads (GoTrue's `MaxPasswordLength`); longer ones are refused, as
  /// bcrypt would ignore every byte past it.
  public static let maximumPasswordBytes = 72

  /// bcrypt's cost for new password hashes (GoTrue's: `bcrypt.DefaultCost`).
  public static let bcryptCost = 10

  /// Most factors one user may have enrolled, verified or not (GoTrue's `MFA_MAX_ENROLLED_FACTORS`).
  public static let maximumFactors = 10

  /// Seconds a TOTP challenge may be verified in (GoTrue's `MFA_CHALLENGE_EXPIRY_DURATION`).
  public static let challengeExpiry = 300
}
