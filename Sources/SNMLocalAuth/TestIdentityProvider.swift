import SNMGateway
import SNMWire

/// The local project's stand-in for Sign in with Apple: a key pair of the project's own that
/// signs id_tokens as Apple's (issuer `https://appleid.apple.com`, audience the project's Apple
/// client id), so a script can sign in "with Apple" offline. Only this project has the key, so
/// only it accepts the tokens; a real Apple token names a key it does not have and is refused.
///
/// ```swift
/// let idp = try TestIdentityProvider(pem: stored)          // the project's key (PKCS#8 PEM)
/// let token = try idp.mint(TestIdentityProvider.Claims(email: "kim@example.com", nonce: "n-1"),
///                          now: Date().timeIntervalSince1970)
/// let claims = try idp.verify(token, now: ...)              // signature, kid and exp only
/// ```
package struct TestIdentityProvider: Sendable {
  /// The issuer Apple's tokens name (GoTrue's `DefaultAppleIssuer`), and its other one.
  package static let appleIssuer = "https://appleid.apple.com"
  static let appleIssuers: Set<String> = [appleIssuer, "https://account.apple.com"]
  /// The local project's Apple client id (GoTrue's `[auth.external.apple] client_id`): the
  /// audience its tokens carry.
  package static let clientID = "dev.snm.local"
  /// The `kid` the test issuer's tokens carry.
  static let kid = "snm-local-test-idp"

  let signer: JWTSigner

  /// The issuer whose key is `pem` (what ``generateKey()`` gave).
  package init(pem: [UInt8]) throws(CryptoError) {
    let key = try SigningKey(pem: pem, kid: Self.kid)
    // The secret is never used: verify takes only the key's algorithm (see `verify`).
    signer = JWTSigner(secret: try Crypto.randomBytes(32), signingKey: key)
  }

  /// A new key for a project's test issuer, as PEM to keep with the project.
  package static func generateKey() throws(CryptoError) -> [UInt8] {
    try SigningKey.generate(.es256).pem
  }

  /// What a minted token says; the defaults make the token the project accepts.
  package struct Claims: Sendable {
    package var email: String
    /// The raw nonce: the token carries its SHA-256 in hex, as Apple's do.
    package var nonce: String?
    package var subject: String?
    package var audience = TestIdentityProvider.clientID
    package var issuer = TestIdentityProvider.appleIssuer
    package var expiresIn = 600

    package init(email: String, nonce: String? = nil) {
      self.email = email
      self.nonce = nonce
    }
  }

  /// An id_token for `claims`, signed with the project's key. The subject defaults to one
  /// derived from the address, so the same address is the same Apple user each time.
  package func mint(_ claims: Claims, now: Double) throws(CryptoError) -> String {
    let issuedAt = Int(now)
    let digest = Crypto.hex(try Crypto.sha256(Array(claims.email.lowercased().utf8)))
    let subject = claims.subject ?? "000000." + digest.prefix(32) + ".0000"
    var members: [JSONObject.Member] = [
      .init("iss", .string(claims.issuer)), .init("aud", .string(claims.audience)),
      .init("exp", .int(issuedAt + claims.expiresIn)), .init("iat", .int(issuedAt)),
      .init("sub", .string(subject)), .init("email", .string(claims.email)),
      .init("email_verified", .bool(true)), .init("is_private_email", .bool(false)),
      .init("auth_time", .int(issuedAt)),
    ]
    if let nonce = claims.nonce {
      members.append(.init("nonce", .string(Self.hashedNonce(nonce))))
      members.append(.init("nonce_supported", .bool(true)))
    }
    return try signer.signUserToken(.object(members))
  }

  /// A raw nonce as Apple's tokens carry it: SHA-256, lowercase hex.
  static func hashedNonce(_ raw: String) -> String {
    Crypto.hex((try? Crypto.sha256(Array(raw.utf8))) ?? [])
  }

  /// The claims of `token` when this issuer's key signed it (ES256, its kid) and it has not
  /// expired; nil otherwise. Issuer, audience and nonce are the caller's checks.
  func verify(_ token: String, now: Double) -> JSONValue? {
    let header = token.split(separator: ".", omittingEmptySubsequences: false).first
      .flatMap { Base64URL.decode($0) }.flatMap { try? JSONValue(parsing: $0) }
    guard header?["alg"]?.stringValue == "ES256", header?["kid"]?.stringValue == Self.kid else {
      return nil
    }
    return try? signer.verify(token, now: now)
  }
}
