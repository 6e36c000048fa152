import SNMGateway
import SNMWire
import Synchronization

/// A real identity provider's signing keys, for the `id_token` grant: the JWKS the project's
/// config names (`[auth.external.apple] jwks`, a file or an `https://` URL) and the client ids
/// its tokens must be for (`client_id`, the audience). Keys are kept for ``ttl`` seconds (GoTrue's
/// `OIDC_PROVIDER_CACHE_TTL`, 1 h) and read again when a token names a `kid` the set does not
/// hold, as go-oidc's remote key set does; a set that cannot be read leaves the token unverified.
///
/// ```swift
/// let keys = ProviderKeys(ProviderKeys.Source(jwks: "https://idp.example/keys", clientIDs: ["app"]))
/// let claims = try keys.verify(token, now: now)   // throws ProviderKeys.Refusal
/// ```
package final class ProviderKeys: Sendable {
  /// Where the keys are and whom the tokens are for: what the project's config says.
  package struct Source: Sendable, Equatable {
    /// A file path or an `https://` URL of a JWKS.
    package var jwks: String
    /// The audiences accepted (GoTrue's `client_id`, a list).
    package var clientIDs: [String]

    package init(jwks: String, clientIDs: [String]) {
      self.jwks = jwks
      self.clientIDs = clientIDs
    }
  }

  /// Why a token is not verified (GoTrue answers each with "Bad ID token").
  package struct Refusal: Error, Equatable {
    package let reason: String
  }

  package let source: Source
  /// Seconds a set read is used before it is read again.
  let ttl: Double
  let read: @Sendable (String) throws(JWKSFetch.Failure) -> [UInt8]

  struct Cache {
    var keys: [SigningKey] = []
    var readAt: Double?
    var reads = 0
  }
  private let cache = Mutex(Cache())

  package init(
    _ source: Source, ttl: Double = 3600,
    read: @escaping @Sendable (String) throws(JWKSFetch.Failure) -> [UInt8] = JWKSFetch.read
  ) {
    self.source = source
    self.ttl = ttl
    self.read = read
  }

  /// How many times the set was read (for tests of the cache).
  var reads: Int { cache.withLock { $0.reads } }

  /// The claims of `token` when one of the provider's keys signed it (RS256 or ES256, the key
  /// its `kid` names, or any key when it names none), it has not expired and its `nbf` is not
  /// more than 5 minutes ahead (go-oidc's rules). Issuer, audience and nonce are the caller's.
  package func verify(_ token: String, now: Double) throws(Refusal) -> JSONValue {
    let parts = token.split(separator: ".", omittingEmptySubsequences: false)
    guard parts.count == 3, let headerBytes = Base64URL.decode(parts[0]),
      let header = try? JSONValue(parsing: headerBytes),
      let payloadBytes = Base64URL.decode(parts[1]),
      let claims = try? JSONValue(parsing: payloadBytes), claims.objectValue != nil,
      let signature = Base64URL.decode(parts[2])
    else { throw Refusal(reason: "malformed jwt") }
    let alg = header["alg"]?.stringValue ?? ""
    guard let algorithm = SigningKey.Algorithm(rawValue: alg) else {
      throw Refusal(reason: "unsupported signing algorithm \(alg)")
    }
    let kid = header["kid"]?.stringValue
    let input = Array(token.utf8.prefix(parts[0].utf8.count + 1 + parts[1].utf8.count))
    let candidates = try keys(kid: kid, now: now).filter { $0.algorithm == algorithm }
    guard candidates.contains(where: { $0.verify(input, signature: signature) }) else {
      throw Refusal(reason: "failed to verify id token signature")
    }
    guard let expiry = claims["exp"]?.doubleValue, expiry > now else {
      throw Refusal(reason: "token is expired")
    }
    if let notBefore = claims["nbf"]?.doubleValue, now + 300 < notBefore {
      throw Refusal(reason: "current time before the nbf (not before) time")
    }
    return claims
  }

  /// The keys that may have signed a token naming `kid`: from the set kept, read again when it
  /// is older than the TTL or holds no such key.
  func keys(kid: String?, now: Double) throws(Refusal) -> [SigningKey] {
    let kept = cache.withLock { cache -> [SigningKey]? in
      guard let readAt = cache.readAt, now - readAt < ttl else { return nil }
      return cache.keys
    }
    if let kept, let found = Self.matching(kept, kid: kid) { return found }
    let bytes: [UInt8]
    do {
      bytes = try read(source.jwks)
    } catch {
      throw Refusal(reason: "fetching keys: \(error.reason)")
    }
    guard let fresh = SigningKey.publicKeys(jwks: bytes) else {
      throw Refusal(reason: "fetching keys: not a JWKS")
    }
    cache.withLock { cache in
      cache.keys = fresh
      cache.readAt = now
      cache.reads += 1
    }
    return Self.matching(fresh, kid: kid) ?? []
  }

  /// The keys named `kid` (every key when the token names none); nil when none is.
  static func matching(_ keys: [SigningKey], kid: String?) -> [SigningKey]? {
    guard let kid else { return keys.isEmpty ? nil : keys }
    let named = keys.filter { $0.kid == kid }
    return named.isEmpty ? nil : named
  }
}
