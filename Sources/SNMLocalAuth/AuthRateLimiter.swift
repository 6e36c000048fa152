import Synchronization

/// GoTrue's per-IP token buckets (`internal/api/apilimiter`): each kind of request has a bucket
/// per client address that holds `burst` requests and refills at `perSecond`; a request that
/// finds its bucket empty is refused with 429 `over_request_rate_limit`, its `Retry-After` the
/// whole seconds until the bucket holds a token again (GoTrue's tollbooth limiter sends none).
///
/// ```swift
/// let limiter = AuthRateLimiter(limits: AuthRateLimits(), now: { Date().timeIntervalSince1970 })
/// try limiter.admit(.token, from: request.remoteAddress)   // throws AuthFailure.overRateLimit(...)
/// ```
/// A limit of 0 admits everything. Buckets of addresses that stayed away until theirs refilled
/// are forgotten, so the table holds only recent clients. Every loopback address (127.0.0.0/8,
/// `::1`) is one client: one machine could otherwise take a fresh bucket per address.
public final class AuthRateLimiter: Sendable {
  /// The kinds of request GoTrue limits separately.
  public enum Kind: Sendable, CaseIterable {
    /// `POST /token`: password sign-ins and refreshes (`GOTRUE_RATE_LIMIT_TOKEN_REFRESH`).
    case token
    /// `POST /signup` with an e-mail, `/otp`, `/magiclink`, `/recover`, `/resend`, `PUT /user`
    /// (`GOTRUE_RATE_LIMIT_OTP`).
    case signUp
    /// `POST /signup` without one: anonymous sign-ins (`GOTRUE_RATE_LIMIT_ANONYMOUS_USERS`).
    case anonymous
    /// `/verify`, GET and POST (`GOTRUE_RATE_LIMIT_VERIFY`).
    case verify
    /// `/factors/{id}/challenge` and `/verify` (`GOTRUE_MFA_RATE_LIMIT_CHALLENGE_AND_VERIFY`).
    case factor
  }

  struct Bucket {
    var tokens: Double
    var updated: Double
  }

  struct Key: Hashable {
    var kind: Kind
    var client: String
  }

  public let limits: AuthRateLimits
  let now: @Sendable () -> Double
  private let buckets = Mutex<[Key: Bucket]>([:])
  /// Past this many buckets, full ones are dropped before a new one is made.
  static let sweepThreshold = 4096

  public init(limits: AuthRateLimits, now: @escaping @Sendable () -> Double) {
    self.limits = limits
    self.now = now
  }

  /// Takes one request from `client`'s bucket of `kind`. Throws `AuthFailure.overRateLimit`
  /// when it is empty, with the seconds until it holds one again.
  public func admit(_ kind: Kind, from client: String) throws(AuthFailure) {
    let (perSecond, burst) = limits.rate(kind)
    guard perSecond > 0 else { return }
    let time = now()
    let wait = buckets.withLock { buckets -> Double? in
      let key = Key(kind: kind, client: Self.bucketName(client))
      var bucket = buckets[key] ?? Bucket(tokens: burst, updated: time)
      if buckets[key] == nil && buckets.count >= Self.sweepThreshold {
        sweep(&buckets, at: time)
      }
      bucket.tokens = min(burst, bucket.tokens + max(0, time - bucket.updated) * perSecond)
      bucket.updated = time
      guard bucket.tokens >= 1 else {
        buckets[key] = bucket
        return (1 - bucket.tokens) / perSecond
      }
      bucket.tokens -= 1
      buckets[key] = bucket
      return nil
    }
    // A microsecond off before rounding up: 1 s computed as 1.0000000001 is still 1 s.
    if let wait {
      throw AuthFailure.overRateLimit(retryAfter: max(1, Int((wait - 1e-6).rounded(.up))))
    }
  }

  /// The bucket an address draws from: its own, or the one every loopback address shares.
  static func bucketName(_ address: String) -> String {
    if address.hasPrefix("127.") || address == "::1" || address.hasPrefix("::ffff:127.") {
      return "loopback"
    }
    return address
  }

  /// Drops the buckets that would be full again by now (their clients are as new).
  private func sweep(_ buckets: inout [Key: Bucket], at time: Double) {
    buckets = buckets.filter { key, bucket in
      let (perSecond, burst) = limits.rate(key.kind)
      return bucket.tokens + (time - bucket.updated) * perSecond < burst
    }
  }

  /// How many client buckets are kept now.
  var count: Int { buckets.withLock { $0.count } }
}
