/// How the Auth gateway issues tokens.
///
/// ```swift
/// AuthSettings(issuer: "http://127.0.0.1:54321/auth/v1", jwtExpiry: 3600)
/// ```
public struct AuthSettings: Sendable, Equatable {
  /// The `iss` claim of access tokens.
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

  public init(
    issuer: String, jwtExpiry: Int = 3600, refreshReuseInterval: Int = 10,
    minimumPasswordLength: Int = 6, rateLimits: AuthRateLimits = AuthRateLimits()
  ) {
    self.issuer = issuer
    self.jwtExpiry = jwtExpiry
    self.refreshReuseInterval = refreshReuseInterval
    self.minimumPasswordLength = minimumPasswordLength
    self.rateLimits = rateLimits
  }

  /// Longest password bcrypt reads (GoTrue's `MaxPasswordLength`); longer ones are refused, as
  /// bcrypt would ignore every byte past it.
  public static let maximumPasswordBytes = 72

  /// bcrypt's cost for new password hashes (GoTrue's: `bcrypt.DefaultCost`).
  public static let bcryptCost = 10
}
