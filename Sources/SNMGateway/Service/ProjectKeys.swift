import SNMWire

/// The project's JWT secret and its API keys, both kinds as a hosted project has them: the legacy
/// `anon` and `service_role` keys (HS256 JWTs with that `role`) and the new opaque ones,
/// `sb_publishable_...` (role anon) and `sb_secret_...` (role service_role), which are not JWTs.
///
/// ```swift
/// let keys = try ProjectKeys(secret: secretBytes, issuedAt: 1_700_000_000)
/// keys.anonKey              // "eyJhbGciOiJIUzI1NiIs…"
/// keys.publishableKey       // "sb_publishable_…"
/// keys.claims(forAPIKey: keys.secretKey)?["role"]   // "service_role"
/// ```
/// Throws `CryptoError` if signing fails.
public struct ProjectKeys: Sendable {
  public let signer: JWTSigner
  public let anonKey: String
  public let serviceRoleKey: String
  /// `sb_publishable_` + 22 characters + `_` + an 8-character check, as Supabase writes them.
  public let publishableKey: String
  /// `sb_secret_` + the same shape.
  public let secretKey: String
  let anonClaims: JSONValue
  let serviceRoleClaims: JSONValue

  /// Derives every key from the secret; the same secret and `issuedAt` give the same keys. With a
  /// `signingKey`, user tokens are signed with it (the API keys stay HS256, as a hosted project's
  /// legacy keys do).
  public init(secret: [UInt8], issuedAt: Int, signingKey: SigningKey? = nil) throws(CryptoError) {
    signer = JWTSigner(secret: secret, signingKey: signingKey)
    let expiry = issuedAt + 10 * 365 * 24 * 3600
    func claims(_ role: String) -> JSONValue {
      .object([
        .init("iss", .string("supabase")), .init("ref", .string("local")),
        .init("role", .string(role)), .init("iat", .int(issuedAt)), .init("exp", .int(expiry)),
      ])
    }
    anonClaims = claims("anon")
    serviceRoleClaims = claims("service_role")
    anonKey = try signer.sign(anonClaims)
    serviceRoleKey = try signer.sign(serviceRoleClaims)
    publishableKey = try Self.opaqueKey("sb_publishable_", secret: secret, issuedAt: issuedAt)
    secretKey = try Self.opaqueKey("sb_secret_", secret: secret, issuedAt: issuedAt)
  }

  /// `prefix` + 16 bytes of HMAC(secret, prefix + issuedAt) in base64url + `_` + 6 bytes of the
  /// SHA-256 of what comes before (a check that catches a mistyped key).
  static func opaqueKey(_ prefix: String, secret: [UInt8], issuedAt: Int) throws(CryptoError)
    -> String
  {
    let mac = try Crypto.hmacSHA256(key: secret, data: Array("\(prefix)\(issuedAt)".utf8))
    let body = prefix + Base64URL.encode(Array(mac.prefix(16)))
    let check = try Crypto.sha256(Array(body.utf8))
    return body + "_" + Base64URL.encode(Array(check.prefix(6)))
  }

  /// The claims of `key` when it is one of the project's four keys, else `nil`.
  public func claims(forAPIKey key: String) -> JSONValue? {
    if Crypto.constantTimeEqual(key, anonKey) { return anonClaims }
    if Crypto.constantTimeEqual(key, serviceRoleKey) { return serviceRoleClaims }
    if Crypto.constantTimeEqual(key, publishableKey) { return anonClaims }
    if Crypto.constantTimeEqual(key, secretKey) { return serviceRoleClaims }
    return nil
  }

  /// The JWT the gateway hands on for a new-format key, as Supabase's gateway mints one for the
  /// services behind it: the anon key's for `sb_publishable_`, service_role's for `sb_secret_`;
  /// nil for any other key (a legacy key is a JWT already).
  public func jwt(forOpaqueKey key: String) -> String? {
    if Crypto.constantTimeEqual(key, publishableKey) { return anonKey }
    if Crypto.constantTimeEqual(key, secretKey) { return serviceRoleKey }
    return nil
  }
}
