import SNMWire
import Testing

@testable import SNMGateway
@testable import SNMLocal

/// Signing-key JWTs (`snm local start --jwt-alg ES256|RS256`): keys that survive their PEM, user
/// tokens with `alg` and `kid` that verify, and every way a token of another key is refused.
@Suite struct SigningKeyTests {
  static let secret = Array("signing-key-test-secret-of-32-characters".utf8)

  @Test(arguments: SigningKey.Algorithm.allCases)
  func aKeySignsVerifiesAndKeepsItsKidThroughItsPEM(_ algorithm: SigningKey.Algorithm) throws {
    let (key, pem) = try SigningKey.generate(algorithm)
    #expect(String(decoding: pem, as: UTF8.self).hasPrefix("-----BEGIN PRIVATE KEY-----"))
    let again = try SigningKey(pem: pem)
    #expect(again.algorithm == algorithm)
    #expect(again.kid == key.kid && again.jwk == key.jwk)
    let input = Array("header.payload".utf8)
    let signature = try key.sign(input)
    #expect(signature.count == (algorithm == .es256 ? 64 : 256))
    #expect(again.verify(input, signature: signature))
    #expect(!again.verify(Array("header.payloaD".utf8), signature: signature))
    var flipped = signature
    flipped[5] ^= 1
    #expect(!key.verify(input, signature: flipped))
    #expect(!key.verify(input, signature: Array(signature.dropLast())))
    let other = try SigningKey.generate(algorithm).0
    #expect(other.kid != key.kid)
    #expect(!other.verify(input, signature: signature))
    #expect(key.jwk["alg"]?.stringValue == algorithm.rawValue)
    #expect(key.jwk["kty"]?.stringValue == (algorithm == .es256 ? "EC" : "RSA"))
    #expect(key.jwk["d"] == nil, "the private part is never published")
  }

  @Test(arguments: SigningKey.Algorithm.allCases)
  func userTokensAreSignedWithTheKeyAndVerify(_ algorithm: SigningKey.Algorithm) throws {
    let key = try SigningKey.generate(algorithm).0
    let signer = JWTSigner(secret: Self.secret, signingKey: key)
    let token = try signer.signUserToken(
      .object([.init("sub", .string("u1")), .init("role", .string("authenticated"))]))
    let header = try #require(
      Base64URL.decode(token.split(separator: ".")[0]).flatMap { try? JSONValue(parsing: $0) })
    #expect(header["alg"]?.stringValue == algorithm.rawValue)
    #expect(header["kid"]?.stringValue == key.kid)
    #expect(try signer.verify(token, now: 0)["sub"]?.stringValue == "u1")
    // The legacy secret's tokens still verify (the API keys, sessions from before).
    let legacy = try signer.sign(.object([.init("role", .string("anon"))]))
    #expect(try signer.verify(legacy, now: 0)["role"]?.stringValue == "anon")
    #expect(signer.jwks["keys"]?.arrayValue?.count == 1)

    // Refused: another key of the same kind, a kid of another key, the token to an HS256-only
    // project, an algorithm swapped in the header.
    let stranger = JWTSigner(secret: Self.secret, signingKey: try SigningKey.generate(algorithm).0)
    let forged = try stranger.signUserToken(.object([.init("sub", .string("u1"))]))
    #expect(throws: JWTError.badSignature) { try signer.verify(forged, now: 0) }
    let parts = token.split(separator: ".").map(String.init)
    let otherKid = Base64URL.encode(
      Array(#"{"alg":"\#(algorithm.rawValue)","kid":"other","typ":"JWT"}"#.utf8))
    #expect(throws: JWTError.badSignature) {
      try signer.verify(otherKid + "." + parts[1] + "." + parts[2], now: 0)
    }
    #expect(throws: JWTError.unsupportedAlgorithm(algorithm.rawValue)) {
      try JWTSigner(secret: Self.secret).verify(token, now: 0)
    }
    let swapped = algorithm == .es256 ? "RS256" : "ES256"
    let swappedHeader = Base64URL.encode(Array(#"{"alg":"\#(swapped)","typ":"JWT"}"#.utf8))
    #expect(throws: JWTError.unsupportedAlgorithm(swapped)) {
      try signer.verify(swappedHeader + "." + parts[1] + "." + parts[2], now: 0)
    }
    // HS256 over the token's own bytes with the public key's JWK as the secret: refused.
    let confused = Base64URL.encode(Array(#"{"alg":"HS256","typ":"JWT"}"#.utf8)) + "." + parts[1]
    let mac = try Crypto.hmacSHA256(
      key: Array(key.jwk.serialized().utf8), data: Array(confused.utf8))
    #expect(throws: JWTError.badSignature) {
      try signer.verify(confused + "." + Base64URL.encode(mac), now: 0)
    }
  }

  @Test func anHS256ProjectPublishesNoKeys() {
    #expect(JWTSigner(secret: Self.secret).jwks.serialized() == #"{"keys":[]}"#)
  }

  @Test func aPEMOfAnotherKindIsRefused() {
    #expect(throws: CryptoError.self) { try SigningKey(pem: Array("not a key".utf8)) }
  }

  /// An Ed25519 key made for this test (`openssl genpkey -algorithm ed25519`): a key libcrypto
  /// reads, of a kind a project does not sign with.
  static let ed25519 = """
    -----BEGIN PRIVATE KEY-----
    MC4CAQAwBQYDK2VwBCIEIJlPFE5GeZ6T26hKDdmlzvGkrbJ+Qwy5lTOR2A9mc6/7
    -----END PRIVATE KEY-----
    """
  static let ed25519Public = """
    -----BEGIN PUBLIC KEY-----
    MCowBQYDK2VwAyEAQHdKVB0x0lUNxNIYennEFd9baxYzSj02zT4oAculIro=
    -----END PUBLIC KEY-----
    """

  @Test func aRefusedPEMSaysWhichKeyAndWhy() {
    let failures: [(String, () throws(CryptoError) -> SigningKey)] = [
      (
        "reading the signing key",
        { () throws(CryptoError) in try SigningKey(pem: Array("no".utf8)) }
      ),
      (
        "reading the public key",
        { () throws(CryptoError) in try SigningKey(publicPEM: Array("no".utf8)) }
      ),
      (
        "reading the signing key (not EC P-256 or RSA 2048)",
        { () throws(CryptoError) in try SigningKey(pem: Array(Self.ed25519.utf8)) }
      ),
      (
        "reading the public key (not EC P-256 or RSA 2048)",
        { () throws(CryptoError) in try SigningKey(publicPEM: Array(Self.ed25519Public.utf8)) }
      ),
    ]
    for (operation, read) in failures {
      #expect(throws: CryptoError(operation: operation)) { _ = try read() }
    }
  }
}

/// `snm local start --signing-keys FILE`: a JWK set as the Supabase CLI keeps it.
@Suite struct SigningKeySetTests {
  /// RFC 7517 appendix A.2's EC P-256 private key, with a kid of our own and an HS256 key before
  /// it that may only verify (it is passed over).
  static let set = """
    [{"kty":"oct","k":"c2VjcmV0LXNlY3JldC1zZWNyZXQtc2VjcmV0LXNlY3JldA","kid":"hs",
      "key_ops":["verify"],"alg":"HS256"},
     {"kty":"EC","crv":"P-256","x":"MKBCTNIcKUSDii11ySs3526iDZ8AiTo7Tu6KPAqv7D4",
      "y":"4Etl6SRW2YiLUrN5vfvVHuhp7x8PxltmWWlbbM4IFyM",
      "d":"870MB6gfuTJ4HtUnUvYMyJpr5eUZNP4Bk43bVdj3eAE","kid":"ci-key-1",
      "key_ops":["sign","verify"],"alg":"ES256"}]
    """

  @Test func theKeyThatMaySignSignsUnderItsOwnKid() throws {
    let key = try SigningKey(jwkSet: Array(Self.set.utf8))
    #expect(key.algorithm == .es256 && key.kid == "ci-key-1")
    #expect(key.jwk["x"]?.stringValue == "MKBCTNIcKUSDii11ySs3526iDZ8AiTo7Tu6KPAqv7D4")
    #expect(key.jwk["kid"]?.stringValue == "ci-key-1" && key.jwk["d"] == nil)
    let input = Array("header.payload".utf8)
    #expect(key.verify(input, signature: try key.sign(input)))
  }

  @Test(arguments: [
    "not json", "[]",
    #"{"keys": [{"kty": "EC", "crv": "P-384", "x": "AA", "y": "AA", "d": "AA"}]}"#,
    #"[{"kty": "RSA", "n": "AQAB", "key_ops": ["verify"]}]"#, #"[{"kty": "RSA", "n": "AQAB"}]"#,
  ])
  func aSetWithoutAUsableKeyIsRefused(_ text: String) {
    #expect(throws: CryptoError.self) { try SigningKey(jwkSet: Array(text.utf8)) }
  }
}
