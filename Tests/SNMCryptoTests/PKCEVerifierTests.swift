import Testing

@testable import SNMCrypto

/// A client's PKCE pair (RFC 7636): the S256 challenge of a verifier, and new verifiers.
@Suite struct PKCEVerifierTests {
  @Test func theChallengeIsRFC7636sExample() throws {
    // RFC 7636, appendix B.
    let pkce = try PKCEVerifier(verifier: "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk")
    #expect(pkce.challenge == "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM")
  }

  @Test func newVerifiersAreFortyThreeCharactersAndDiffer() throws {
    let first = try PKCEVerifier.generate()
    let second = try PKCEVerifier.generate()
    #expect(first.verifier.count == 43 && first.challenge.count == 43)
    #expect(first.verifier != second.verifier)
    let allowed = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
    #expect(first.verifier.allSatisfy(allowed.contains))
  }
}
