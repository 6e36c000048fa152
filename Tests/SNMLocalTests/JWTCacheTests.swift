import Testing

@testable import SNMGateway
@testable import SNMLocal

@Suite struct JWTCacheTests {
  let signer = JWTSigner(secret: secret)

  @Test func aCachedTokenStillExpires() throws {
    let cache = JWTCache()
    let token = try signer.sign(claims([.init("role", .string("anon")), .init("exp", .int(2000))]))
    #expect(try cache.verify(token, signer: signer, now: 1000)["role"]?.stringValue == "anon")
    #expect(cache.count == 1)
    #expect(throws: JWTError.expired) { try cache.verify(token, signer: signer, now: 2000) }
  }

  @Test func theAudienceIsCheckedOnEveryUse() throws {
    let cache = JWTCache()
    let token = try signer.sign(
      claims([.init("role", .string("authenticated")), .init("aud", .string("authenticated"))]))
    #expect(try cache.verify(token, signer: signer, now: 1, audience: "authenticated") != .null)
    #expect(throws: JWTError.wrongAudience) {
      try cache.verify(token, signer: signer, now: 1, audience: "other")
    }
  }

  @Test func failuresAreNotCached() throws {
    let cache = JWTCache()
    let other = try JWTSigner(secret: Array("another-secret".utf8)).sign(
      claims([.init("role", .string("service_role"))]))
    #expect(throws: JWTError.badSignature) { try cache.verify(other, signer: signer, now: 1) }
    #expect(throws: JWTError.badSignature) { try cache.verify(other, signer: signer, now: 1) }
    #expect(cache.count == 0)
  }

  @Test func theClaimsTextIsKeptWithTheClaimsAndStillExpires() throws {
    let cache = JWTCache()
    let token = try signer.sign(
      claims([.init("role", .string("authenticated")), .init("exp", .int(2000))]))
    let first = try cache.verifiedClaims(token, signer: signer, now: 1000)
    #expect(first.text == first.claims.serialized())
    let again = try cache.verifiedClaims(token, signer: signer, now: 1999)
    #expect(again.text == first.text && again.claims == first.claims && cache.count == 1)
    #expect(throws: JWTError.expired) { try cache.verifiedClaims(token, signer: signer, now: 2000) }
  }

  @Test func aFullCacheStartsAfresh() throws {
    let cache = JWTCache(capacity: 2)
    for n in 0..<3 {
      let token = try signer.sign(claims([.init("role", .string("anon")), .init("n", .int(n))]))
      #expect(try cache.verify(token, signer: signer, now: 1)["n"]?.intValue == n)
    }
    #expect(cache.count == 1)
  }
}
