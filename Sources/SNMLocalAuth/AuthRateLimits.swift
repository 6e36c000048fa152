/// How many Auth requests one client address may make, in GoTrue's units and defaults; the names
/// are the Supabase CLI's `[auth.rate_limit]` keys. 0 switches a limit off.
///
/// ```swift
/// var limits = AuthRateLimits()
/// try limits.set("token_refresh=300")   // `snm local start --auth-rate-limit token_refresh=300`
/// ```
public struct AuthRateLimits: Sendable, Equatable {
  /// Sign-ins and refreshes per 5 minutes (bucket of 30).
  public var tokenRefresh = 150
  /// E-mail sign-ups and sent codes (otp, magic link, recover, resend, user update) per 5
  /// minutes (bucket of 30), GoTrue's `RATE_LIMIT_OTP`.
  public var signInSignUps = 30
  /// Anonymous sign-ins per hour (bucket of as many).
  public var anonymousUsers = 30
  /// OTP and link verifications per 5 minutes (bucket of 30): `/verify`.
  public var tokenVerifications = 30

  public init() {}

  /// The names `set` and `project.json` use, in order.
  public static let names = [
    "token_refresh", "sign_in_sign_ups", "anonymous_users", "token_verifications",
  ]

  /// The limit called `name`, nil for an unknown name.
  public subscript(name: String) -> Int? {
    switch name {
    case "token_refresh": tokenRefresh
    case "sign_in_sign_ups": signInSignUps
    case "anonymous_users": anonymousUsers
    case "token_verifications": tokenVerifications
    default: nil
    }
  }

  /// Sets one limit from `NAME=N`. Throws a message for an unknown name or a bad number.
  public mutating func set(_ assignment: String) throws(AuthRateLimitError) {
    let parts = assignment.split(separator: "=", maxSplits: 1).map(String.init)
    guard parts.count == 2, let value = Int(parts[1]), (0...1_000_000).contains(value) else {
      throw AuthRateLimitError(
        message: "expected NAME=N with N from 0 to 1000000, got '\(assignment)'")
    }
    switch parts[0] {
    case "token_refresh": tokenRefresh = value
    case "sign_in_sign_ups": signInSignUps = value
    case "anonymous_users": anonymousUsers = value
    case "token_verifications": tokenVerifications = value
    default:
      throw AuthRateLimitError(
        message: "unknown limit '\(parts[0])' (one of \(Self.names.joined(separator: ", ")))")
    }
  }

  /// Refill per second and bucket size for `kind`, as GoTrue builds its limiters.
  func rate(_ kind: AuthRateLimiter.Kind) -> (perSecond: Double, burst: Double) {
    switch kind {
    case .token: (Double(tokenRefresh) / 300, 30)
    case .signUp: (Double(signInSignUps) / 300, 30)
    case .anonymous: (Double(anonymousUsers) / 3600, Double(anonymousUsers))
    case .verify: (Double(tokenVerifications) / 300, 30)
    // GoTrue's MFA limit (15 a minute) is not in config.toml; it follows the verifications' switch.
    case .factor: (tokenVerifications == 0 ? 0 : 15.0 / 60, 30)
    }
  }
}

/// A rate limit that could not be read (`--auth-rate-limit`).
public struct AuthRateLimitError: Error, Sendable, Equatable {
  public var message: String
}
