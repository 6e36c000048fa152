import SNMWire
import Synchronization

/// Claims of tokens whose signature has been checked once, as PostgREST's JWT cache keeps them:
/// a client sends the same token with every request, and the HMAC and two JSON parses were a
/// fifth of the gateway's time for a primary-key read.
///
/// ```swift
/// let cache = JWTCache()
/// let claims = try cache.verify(token, signer: signer, now: now())   // as signer.verify
/// ```
/// `exp`, `nbf`, `iat` and the audience are checked on every use, so a cached token still
/// expires. At most
/// `capacity` tokens are kept; when full, the cache starts afresh. Throws `JWTError` as
/// `JWTSigner.verify` does (failures are not cached).
public final class JWTCache: Sendable {
  private let entries = Mutex<[String: JSONValue]>([:])
  public let capacity: Int

  public init(capacity: Int = 1024) {
    self.capacity = capacity
  }

  /// The token's claims: from the cache (times checked again), else verified by `signer`.
  public func verify(
    _ token: String, signer: JWTSigner, now: Double, audience: String? = nil
  ) throws(JWTError) -> JSONValue {
    if let claims = entries.withLock({ $0[token] }) {
      try signer.checkClaims(claims, now: now, audience: audience)
      return claims
    }
    let claims = try signer.verify(token, now: now, audience: audience)
    entries.withLock { entries in
      if entries.count >= capacity { entries.removeAll(keepingCapacity: true) }
      entries[token] = claims
    }
    return claims
  }

  /// How many tokens are kept now.
  public var count: Int { entries.withLock { $0.count } }
}
