/// The project's JWT secret and its two API keys (HS256 JWTs with `role` anon / service_role).
///
/// ```swift
/// let keys = try ProjectKeys(secret: secretBytes, issuedAt: 1_700_000_000)
/// keys.anonKey              // "eyJhbGciOiJIUzI1NiIs…"
/// keys.claims(forAPIKey: keys.serviceRoleKey)?["role"]   // "service_role"
/// ```
/// Throws `CryptoError` if signing fails.
public struct ProjectKeys: Sendable {
  public let signer: JWTSigner
  public let anonKey: String
  public let serviceRoleKey: String
  let anonClaims: LocalJSON
  let serviceRoleClaims: LocalJSON

  /// Derives both keys from the secret; the same secret and `issuedAt` give the same keys.
  public init(secret: [UInt8], issuedAt: Int) throws(CryptoError) {
    signer = JWTSigner(secret: secret)
    let expiry = issuedAt + 10 * 365 * 24 * 3600
    func claims(_ role: String) -> LocalJSON {
      .object([
        .init("iss", .string("supabase")), .init("ref", .string("local")),
        .init("role", .string(role)), .init("iat", .int(issuedAt)), .init("exp", .int(expiry)),
      ])
    }
    anonClaims = claims("anon")
    serviceRoleClaims = claims("service_role")
    anonKey = try signer.sign(anonClaims)
    serviceRoleKey = try signer.sign(serviceRoleClaims)
  }

  /// The claims of `key` when it is one of the project's two keys, else `nil`.
  public func claims(forAPIKey key: String) -> LocalJSON? {
    let bytes = Array(key.utf8)
    if Crypto.constantTimeEqual(bytes, Array(anonKey.utf8)) { return anonClaims }
    if Crypto.constantTimeEqual(bytes, Array(serviceRoleKey.utf8)) { return serviceRoleClaims }
    return nil
  }
}
