import SNMWire
import Testing

@testable import SNMGateway
@testable import SNMLocal

let secret = Array("super-secret-jwt-token-with-at-least-32-characters-long".utf8)

func claims(_ members: [JSONObject.Member]) -> JSONValue { .object(members) }

@Test func signsAndVerifiesRoundTrip() throws {
  let signer = JWTSigner(secret: secret)
  let token = try signer.sign(claims([.init("role", .string("anon")), .init("exp", .int(2000))]))
  #expect(token.split(separator: ".").count == 3)
  let verified = try signer.verify(token, now: 1000)
  #expect(verified["role"]?.stringValue == "anon")
}

@Test func matchesAKnownHS256Vector() throws {
  // jwt.io's default HS256 example with the secret "your-256-bit-secret".
  let signer = JWTSigner(secret: Array("your-256-bit-secret".utf8))
  let token =
    "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIiwiaWF0IjoxNTE2MjM5MDIyfQ.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c"
  let verified = try signer.verify(token, now: 1_600_000_000)
  #expect(verified["name"]?.stringValue == "John Doe")
}

struct JWTFailureCase: Sendable, CustomStringConvertible {
  var name: String
  var token: @Sendable (JWTSigner) throws -> String
  var audience: String?
  var expected: JWTError
  var description: String { name }
}

func unsigned(_ header: String, _ payload: String, _ signature: String = "") -> String {
  Base64URL.encode(Array(header.utf8)) + "." + Base64URL.encode(Array(payload.utf8)) + "."
    + signature
}

@Test(arguments: [
  JWTFailureCase(name: "empty", token: { _ in "" }, expected: .empty),
  JWTFailureCase(
    name: "two parts", token: { _ in "abc.def" },
    expected: .malformed("Expected 3 parts in JWT; got 2")),
  JWTFailureCase(
    name: "alg none", token: { _ in unsigned(#"{"alg":"none"}"#, #"{"role":"service_role"}"#) },
    expected: .unsupportedAlgorithm("none")),
  JWTFailureCase(
    name: "alg RS256", token: { _ in unsigned(#"{"alg":"RS256"}"#, #"{"role":"x"}"#, "AAAA") },
    expected: .unsupportedAlgorithm("RS256")),
  JWTFailureCase(
    name: "other secret",
    token: { _ in
      try JWTSigner(secret: Array("another-secret".utf8)).sign(
        claims([.init("role", .string("anon"))]))
    }, expected: .badSignature),
  JWTFailureCase(
    name: "payload swapped",
    token: { signer in
      let good = try signer.sign(claims([.init("role", .string("anon"))])).split(separator: ".")
      return good[0] + "." + Base64URL.encode(Array(#"{"role":"service_role"}"#.utf8)) + "."
        + good[2]
    }, expected: .badSignature),
  JWTFailureCase(
    name: "expired", token: { try $0.sign(claims([.init("exp", .int(999))])) }, expected: .expired),
  JWTFailureCase(
    name: "expires now", token: { try $0.sign(claims([.init("exp", .int(1000))])) },
    expected: .expired),
  JWTFailureCase(
    name: "not yet valid", token: { try $0.sign(claims([.init("nbf", .int(2000))])) },
    expected: .notYetValid),
  JWTFailureCase(
    name: "issued in future", token: { try $0.sign(claims([.init("iat", .int(5000))])) },
    expected: .issuedInFuture),
  JWTFailureCase(
    name: "wrong audience", token: { try $0.sign(claims([.init("aud", .string("other"))])) },
    audience: "authenticated", expected: .wrongAudience),
  JWTFailureCase(
    name: "exp a string", token: { try $0.sign(claims([.init("exp", .string("2000"))])) },
    expected: .claimNotNumber("exp")),
  JWTFailureCase(
    name: "nbf a string", token: { try $0.sign(claims([.init("nbf", .string("invalid"))])) },
    expected: .claimNotNumber("nbf")),
  JWTFailureCase(
    name: "iat a boolean", token: { try $0.sign(claims([.init("iat", .bool(true))])) },
    expected: .claimNotNumber("iat")),
  JWTFailureCase(
    name: "expired before a wrongly typed nbf",
    token: { try $0.sign(claims([.init("exp", .int(10)), .init("nbf", .string("x"))])) },
    expected: .expired),
  JWTFailureCase(
    name: "aud a number without a configured audience",
    token: { try $0.sign(claims([.init("aud", .int(42))])) },
    expected: .audienceNotStringOrArray),
  JWTFailureCase(
    name: "aud a list with an object",
    token: {
      try $0.sign(claims([.init("aud", .array([.object([]), .string("authenticated")]))]))
    }, audience: "authenticated", expected: .audienceNotStringOrArray),
])
func refusesBadTokens(_ example: JWTFailureCase) throws {
  let signer = JWTSigner(secret: secret)
  let token = try example.token(signer)
  #expect(throws: example.expected) {
    try signer.verify(token, now: 1000, audience: example.audience)
  }
}

@Test func acceptsAudienceInArrayAndAbsentAudience() throws {
  let signer = JWTSigner(secret: secret)
  let listed = try signer.sign(
    claims([.init("aud", .array([.string("x"), .string("authenticated")]))]))
  #expect(throws: Never.self) { try signer.verify(listed, now: 1, audience: "authenticated") }
  let none = try signer.sign(claims([.init("role", .string("anon"))]))
  #expect(throws: Never.self) { try signer.verify(none, now: 1, audience: "authenticated") }
}

@Test func postgrestRulesRefuseNullTimesAndCountFractionsAsZero() throws {
  let signer = JWTSigner(secret: secret)
  for name in ["exp", "nbf", "iat"] {
    let token = try signer.sign(claims([.init(name, .null)]))
    #expect(throws: JWTError.claimNotNumber(name)) { try signer.verify(token, now: 1000) }
    #expect(throws: Never.self) { try signer.verify(token, now: 1000, rules: .gotrue) }
  }
  let anyAudience = try signer.sign(claims([.init("aud", .null)]))
  #expect(throws: Never.self) { try signer.verify(anyAudience, now: 1, audience: "authenticated") }
  let noAudience = try signer.sign(claims([.init("aud", .array([]))]))
  #expect(throws: Never.self) { try signer.verify(noAudience, now: 1, audience: "authenticated") }
  let fractional = try signer.sign(claims([.init("exp", .number(5000.5))]))
  #expect(throws: JWTError.expired) { try signer.verify(fractional, now: 1000) }
  #expect(throws: Never.self) { try signer.verify(fractional, now: 1000, rules: .gotrue) }
  let wholeButWritten = try signer.sign(claims([.init("exp", .number(5000.0))]))
  #expect(throws: Never.self) { try signer.verify(wholeButWritten, now: 1000) }
  let futureFraction = try signer.sign(claims([.init("nbf", .number(5000.5))]))
  #expect(throws: Never.self) { try signer.verify(futureFraction, now: 1000) }
}

@Test func joseRulesTypeTheTimesFirstRefuseNullAndIgnoreAud() throws {
  let signer = JWTSigner(secret: secret)
  let null = try signer.sign(claims([.init("nbf", .null)]))
  #expect(throws: JWTError.claimNotNumber("nbf")) {
    try signer.verify(null, now: 1000, rules: .jose)
  }
  // jose types iat, nbf and exp before any time check: the expiry is not the answer.
  let both = try signer.sign(claims([.init("exp", .int(10)), .init("iat", .string("x"))]))
  #expect(throws: JWTError.claimNotNumber("iat")) {
    try signer.verify(both, now: 1000, rules: .jose)
  }
  let aud = try signer.sign(claims([.init("aud", .int(42))]))
  #expect(throws: Never.self) { try signer.verify(aud, now: 1000, rules: .jose) }
}

@Test func errorCodesFollowPostgREST() {
  #expect(JWTError.expired.postgrestCode == "PGRST303")
  #expect(JWTError.badSignature.postgrestCode == "PGRST301")
  #expect(JWTError.expired.message == "JWT expired")
  #expect(JWTError.claimNotNumber("nbf").postgrestCode == "PGRST303")
  #expect(JWTError.claimNotNumber("nbf").message == "The JWT 'nbf' claim must be a number")
}

@Test func base64URLRoundTripsEveryLength() {
  for length in 0..<10 {
    let bytes = (0..<length).map { UInt8(truncatingIfNeeded: $0 * 37 + 250) }
    #expect(Base64URL.decode(Base64URL.encode(bytes)) == bytes)
  }
  #expect(Base64URL.decode("a") == nil)
  #expect(Base64URL.decode("ab+c") == nil)
}
