import SNMWire
import Synchronization
import Testing

@testable import SNMGateway
@testable import SNMLocalAuth

/// A real provider's keys for the id_token grant (``ProviderKeys``): a key read back from its
/// public JWK verifies what its private half signed; the set is read once, again after the TTL
/// or for a kid it lacks; a set that cannot be read refuses the token.
@Suite struct ProviderKeysTests {
  /// A provider: its keys' JWKS, which a test changes, and how many times it was read.
  final class Published: Sendable {
    let set = Mutex<[SigningKey]>([])
    let failing = Mutex(false)

    func read(_ source: String) throws(JWKSFetch.Failure) -> [UInt8] {
      if failing.withLock({ $0 }) { throw JWKSFetch.Failure(reason: "answered 500") }
      let keys = set.withLock { $0.map(\.jwk) }
      return Array(JSONValue.object([.init("keys", .array(keys))]).serialized().utf8)
    }
  }

  static func token(_ key: SigningKey, exp: Int, nbf: Int? = nil) throws -> String {
    var claims: [JSONObject.Member] = [.init("sub", .string("s")), .init("exp", .int(exp))]
    if let nbf { claims.append(.init("nbf", .int(nbf))) }
    return try JWTSigner(secret: [], signingKey: key).signUserToken(.object(claims))
  }

  @Test(arguments: SigningKey.Algorithm.allCases)
  func aPublicJWKVerifiesWhatItsKeySigned(_ algorithm: SigningKey.Algorithm) throws {
    let key = try SigningKey.generate(algorithm).0
    let published = try SigningKey(publicJWK: key.jwk)
    #expect(published.kid == key.kid && published.algorithm == algorithm)
    let input = Array("header.payload".utf8)
    #expect(published.verify(input, signature: try key.sign(input)))
    #expect(throws: CryptoError.self) { try published.sign(input) }
    let set = Array(#"{"keys": [\#(key.jwk.serialized()), {"kty": "oct", "k": "c2VjcmV0"}]}"#.utf8)
    #expect(SigningKey.publicKeys(jwks: set)?.map(\.kid) == [key.kid])
    #expect(SigningKey.publicKeys(jwks: Array("[]".utf8)) == nil)
  }

  @Test func theSetIsReadOnceAgainAfterItsTTLAndForAnUnknownKid() throws {
    let first = try SigningKey.generate(.rs256).0
    let second = try SigningKey.generate(.es256).0
    let provider = Published()
    provider.set.withLock { $0 = [first] }
    let keys = ProviderKeys(
      .init(jwks: "https://idp.example/keys", clientIDs: ["app"]), ttl: 100, read: provider.read)
    #expect(try keys.verify(try Self.token(first, exp: 2000), now: 1000)["sub"]?.stringValue == "s")
    #expect(try keys.verify(try Self.token(first, exp: 2000), now: 1050)["sub"]?.stringValue == "s")
    #expect(keys.reads == 1)
    _ = try keys.verify(try Self.token(first, exp: 2000), now: 1101)
    #expect(keys.reads == 2, "read again once the TTL is over")
    provider.set.withLock { $0 = [first, second] }
    #expect(
      try keys.verify(try Self.token(second, exp: 2000), now: 1102)["sub"]?.stringValue == "s")
    #expect(keys.reads == 3, "a kid the set lacks reads it again")
    let stranger = try SigningKey.generate(.rs256).0
    #expect(throws: ProviderKeys.Refusal.self) {
      try keys.verify(try Self.token(stranger, exp: 2000), now: 1103)
    }
    #expect(keys.reads == 4)
  }

  @Test func expiryNotBeforeAndAnUnreadableSetRefuse() throws {
    let key = try SigningKey.generate(.rs256).0
    let provider = Published()
    provider.set.withLock { $0 = [key] }
    let keys = ProviderKeys(.init(jwks: "keys.json", clientIDs: ["app"]), read: provider.read)
    #expect(throws: ProviderKeys.Refusal(reason: "token is expired")) {
      try keys.verify(try Self.token(key, exp: 1000), now: 1000)
    }
    #expect(
      try keys.verify(try Self.token(key, exp: 2000, nbf: 1299), now: 1000)["sub"]?.stringValue
        == "s")
    #expect(throws: ProviderKeys.Refusal.self) {
      try keys.verify(try Self.token(key, exp: 2000, nbf: 1301), now: 1000)
    }
    provider.failing.withLock { $0 = true }
    let rotated = try SigningKey.generate(.rs256).0
    #expect(throws: ProviderKeys.Refusal(reason: "fetching keys: answered 500")) {
      try keys.verify(try Self.token(rotated, exp: 2000), now: 1000)
    }
    #expect(try keys.verify(try Self.token(key, exp: 2000), now: 1001)["sub"]?.stringValue == "s")
  }
}
