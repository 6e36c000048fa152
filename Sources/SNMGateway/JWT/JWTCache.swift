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
/// `exp`, `nbf`, `iat` and the audience are checked on every use (by the caller's rules), so a cached token still
/// expires. At most
/// `capacity` tokens are kept; when full, the cache starts afresh. Throws `JWTError` as
/// `JWTSigner.verify` does (failures are not cached).
///
/// The claims' compact JSON text is kept beside them (`verifiedClaims`), for the request's
/// `request.jwt.claims` setting.
public final class JWTCache: Sendable {
  private let entries = Mutex<[String: (claims: JSONValue, text: String)]>([:])
  public let capacity: Int

  public init(capacity: Int = 1024) {
    self.capacity = capacity
  }

  /// The token's claims: from the cache (times checked again), else verified by `signer`.
  public func verify(
    _ token: String, signer: JWTSigner, now: Double, audience: String? = nil,
    rules: JWTClaimRules = .postgrest
  ) throws(JWTError) -> JSONValue {
    try verifiedClaims(token, signer: signer, now: now, audience: audience, rules: rules).claims
  }

  /// As `verify`, with the claims' compact JSON text (serialised once per token).
  public func verifiedClaims(
    _ token: String, signer: JWTSigner, now: Double, audience: String? = nil,
    rules: JWTClaimRules = .postgrest
  ) throws(JWTError) -> (claims: JSONValue, text: String) {
    if let entry = entries.withLock({ $0[token] }) {
      try signer.checkClaims(entry.claims, now: now, audience: audience, rules: rules)
      return entry
    }
    let claims = try signer.verify(token, now: now, audience: audience, rules: rules)
    let entry = (claims: claims, text: claims.serialized())
    entries.withLock { entries in
      if entries.count >= capacity { entries.removeAll(keepingCapacity: true) }
      entries[token] = entry
    }
    return entry
  }

  /// How many tokens are kept now.
  public var count: Int { entries.withLock { $0.count } }
}
