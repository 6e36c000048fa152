import SNMWire

/// JSON Web Tokens: sign claims, verify tokens (signature, `alg`, `exp`, `nbf`, `iat`, `aud`).
///
/// ```swift
/// let signer = JWTSigner(secret: Array(secretText.utf8))
/// let token = try signer.sign(.object([.init("role", .string("anon"))]))
/// let claims = try signer.verify(token, now: Date().timeIntervalSince1970)
/// claims["role"]?.stringValue   // "anon"
/// ```
/// With a `signingKey` (`snm local start --jwt-alg ES256`), user tokens are signed with it
/// (`signUserToken`, header `alg` and `kid`) and verified against it, as a hosted project with
/// signing keys does; HS256 tokens of the secret (the legacy API keys, older sessions) still
/// verify. `verify` throws `JWTError`; signing throws `CryptoError` if libcrypto fails.
public struct JWTSigner: Sendable {
  let secret: [UInt8]
  /// The asymmetric key user tokens are signed with; nil: HS256 with the secret.
  public let signingKey: SigningKey?
  /// Seconds of clock skew tolerated for `nbf` and `iat`; `exp` is strict so short expiries test fast.
  public var leeway: Double

  public init(secret: [UInt8], signingKey: SigningKey? = nil, leeway: Double = 30) {
    self.secret = secret
    self.signingKey = signingKey
    self.leeway = leeway
  }

  /// A session's access token: with the signing key when there is one, else HS256.
  public func signUserToken(_ claims: JSONValue) throws(CryptoError) -> String {
    guard let signingKey else { return try sign(claims) }
    let header = Base64URL.encode(
      Array(
        #"{"alg":"\#(signingKey.algorithm.rawValue)","kid":"\#(signingKey.kid)","typ":"JWT"}"#.utf8)
    )
    let input = header + "." + Base64URL.encode(Array(claims.serialized().utf8))
    return input + "." + Base64URL.encode(try signingKey.sign(Array(input.utf8)))
  }

  /// The JWKS (`/auth/v1/.well-known/jwks.json`): the signing key's public half, or no keys for an
  /// HS256 project (a shared secret is never published).
  public var jwks: JSONValue {
    .object([.init("keys", .array(signingKey.map { [$0.jwk] } ?? []))])
  }

  /// Signs `claims` (a JSON object) as `header.payload.signature` with `{"alg":"HS256","typ":"JWT"}`.
  public func sign(_ claims: JSONValue) throws(CryptoError) -> String {
    let header = Base64URL.encode(Array(#"{"alg":"HS256","typ":"JWT"}"#.utf8))
    let payload = Base64URL.encode(Array(claims.serialized().utf8))
    let input = header + "." + payload
    let mac = try Crypto.hmacSHA256(key: secret, data: Array(input.utf8))
    return input + "." + Base64URL.encode(mac)
  }

  /// Checks `token` and returns its claims object.
  ///
  /// `audience`: when set, a token whose `aud` (string or non-empty array) is present and does not
  /// contain it is refused; a token without `aud` (or with `[]`) passes, as PostgREST does. `rules`:
  /// how claims of the wrong type are refused (`JWTClaimRules`). `now` is unix seconds.
  /// Throws `JWTError` in this order: malformed, algorithm, signature, then claims.
  public func verify(
    _ token: String, now: Double, audience: String? = nil, rules: JWTClaimRules = .postgrest
  ) throws(JWTError) -> JSONValue {
    guard !token.isEmpty else { throw .empty }
    let parts = token.split(separator: ".", omittingEmptySubsequences: false)
    guard parts.count == 3 else { throw .malformed("Expected 3 parts in JWT; got \(parts.count)") }
    guard let headerBytes = Base64URL.decode(parts[0]),
      let header = try? JSONValue(parsing: headerBytes), header.objectValue != nil
    else { throw .malformed("JWT header is not base64url-encoded JSON") }
    let alg = header["alg"]?.stringValue ?? ""
    guard alg == "HS256" || alg == signingKey?.algorithm.rawValue else {
      throw .unsupportedAlgorithm(alg)
    }
    guard let signature = Base64URL.decode(parts[2]) else {
      throw .malformed("JWT signature is not base64url-encoded")
    }
    let input = Array(token.utf8.prefix(parts[0].utf8.count + 1 + parts[1].utf8.count))
    if let signingKey, alg == signingKey.algorithm.rawValue {
      // A `kid` naming another key is no key of this project's.
      if let kid = header["kid"], kid.stringValue != signingKey.kid { throw .badSignature }
      guard signingKey.verify(input, signature: signature) else { throw .badSignature }
    } else {
      guard let expected = try? Crypto.hmacSHA256(key: secret, data: input),
        Crypto.constantTimeEqual(expected, signature)
      else { throw .badSignature }
    }
    guard let payloadBytes = Base64URL.decode(parts[1]),
      let claims = try? JSONValue(parsing: payloadBytes), claims.objectValue != nil
    else { throw .malformed("JWT payload is not base64url-encoded JSON") }
    try checkClaims(claims, now: now, audience: audience, rules: rules)
    return claims
  }

  /// The checks that depend on the clock and the caller, not the signature: each of `exp`, `nbf`,
  /// `iat` its type then its time, then `aud` (JWTCache repeats them for a token it has seen).
  func checkClaims(
    _ claims: JSONValue, now: Double, audience: String?, rules: JWTClaimRules = .postgrest
  ) throws(JWTError) {
    if rules == .jose {
      // jose types all three before it compares any time with the clock.
      for name in ["iat", "nbf", "exp"] {
        if let value = claims[name], value.numberValue == nil { throw .claimNotNumber(name) }
      }
    }
    if let exp = try timeClaim("exp", of: claims, rules: rules), now >= exp { throw .expired }
    if let nbf = try timeClaim("nbf", of: claims, rules: rules), now + leeway < nbf {
      throw .notYetValid
    }
    if let iat = try timeClaim("iat", of: claims, rules: rules), now + leeway < iat {
      throw .issuedInFuture
    }
    guard let aud = claims["aud"], !aud.isNull else { return }
    var names: [String] = []
    if let name = aud.stringValue {
      names = [name]
    } else if let items = aud.arrayValue, items.allSatisfy({ $0.stringValue != nil }) {
      names = items.compactMap(\.stringValue)
    } else if rules != .jose {
      throw .audienceNotStringOrArray
    }
    if let audience, !names.isEmpty, !names.contains(audience) { throw .wrongAudience }
  }

  /// A time claim's seconds under `rules`: nil when absent (or null to GoTrue), `claimNotNumber`
  /// when of another type.
  private func timeClaim(
    _ name: String, of claims: JSONValue, rules: JWTClaimRules
  ) throws(JWTError) -> Double? {
    guard let value = claims[name] else { return nil }
    if value.isNull && rules == .gotrue { return nil }
    guard let seconds = value.doubleValue else { throw .claimNotNumber(name) }
    guard rules == .postgrest else { return seconds }
    let whole = seconds.rounded(.towardZero) == seconds && abs(seconds) < 9.2e18
    return whole ? seconds : 0
  }
}
