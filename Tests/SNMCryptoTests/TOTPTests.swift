import SNMCrypto
import Testing

struct TOTPCase: Sendable, CustomStringConvertible {
  var time: Double
  var code: String
  var description: String { "t=\(Int(time))" }
}

/// RFC 6238 appendix B (SHA1 column, secret "12345678901234567890"), in 8 digits.
let rfcCases: [TOTPCase] = [
  TOTPCase(time: 59, code: "94287082"), TOTPCase(time: 1_111_111_109, code: "07081804"),
  TOTPCase(time: 1_111_111_111, code: "14050471"), TOTPCase(time: 1_234_567_890, code: "89005924"),
  TOTPCase(time: 2_000_000_000, code: "69279037"),
  TOTPCase(time: 20_000_000_000, code: "65353130"),
]

@Test(arguments: rfcCases)
func rfc6238Vectors(_ example: TOTPCase) throws {
  let totp = TOTP(secret: Array("12345678901234567890".utf8), digits: 8)
  #expect(try totp.code(at: example.time) == example.code)
  // Six digits are the last six of the same number.
  let six = TOTP(secret: Array("12345678901234567890".utf8))
  #expect(try six.code(at: example.time) == String(example.code.suffix(6)))
}

@Test func matchingAllowsOneStepEitherSide() throws {
  let totp = TOTP(secret: Array("12345678901234567890".utf8))
  let now = 1_111_111_111.0
  let previous = try totp.code(at: now - 30)
  let next = try totp.code(at: now + 30)
  let far = try totp.code(at: now - 90)
  #expect(try totp.matchingStep(previous, at: now) == totp.step(at: now) - 1)
  #expect(try totp.matchingStep(next, at: now) == totp.step(at: now) + 1)
  #expect(try totp.matchingStep(far, at: now) == nil)
  #expect(try totp.matchingStep("12345", at: now) == nil)
  #expect(try totp.matchingStep("abcdef", at: now) == nil)
}

@Test func base32RoundTripsAndRefusesStrangers() {
  #expect(Base32.encode(Array("foobar".utf8)) == "MZXW6YTBOI")
  #expect(Base32.encode(Array("f".utf8)) == "MY")
  #expect(Base32.decode("mzxw6ytboi======") == Array("foobar".utf8))
  #expect(Base32.decode("MZXW 6YTB OI") == Array("foobar".utf8))
  #expect(Base32.decode("MZ1W") == nil)
  #expect(Base32.decode("M") == nil)
  let bytes: [UInt8] = (0..<20).map { UInt8($0 * 13 & 0xff) }
  #expect(Base32.decode(Base32.encode(bytes)) == bytes)
}

@Test func generatedSecretsAreTwentyBytesAndTheURINamesThem() throws {
  let totp = try TOTP.generate()
  #expect(totp.secret.count == 20)
  #expect(totp.base32Secret.count == 32)
  #expect(TOTP(base32Secret: totp.base32Secret) == totp)
  let uri = totp.uri(issuer: "snm local", account: "kim@example.com")
  #expect(
    uri == "otpauth://totp/snm%20local:kim@example.com?algorithm=SHA1&digits=6&issuer=snm%20local"
      + "&period=30&secret=\(totp.base32Secret)")
}

@Test func qrCodesHaveFinderPatternsAndGrowWithTheirText() throws {
  let small = try #require(QRCode("hello"))
  #expect(small.size == 21)
  for (x, y) in [(0, 0), (6, 0), (0, 6), (20, 0), (0, 20), (3, 3)] {
    #expect(small.isDark(x: x, y: y))
  }
  #expect(!small.isDark(x: 7, y: 7))
  let uri = try TOTP.generate().uri(issuer: "127.0.0.1", account: "kim@example.com")
  let large = try #require(QRCode(uri))
  #expect(large.size > small.size)
  #expect(large.svg().hasPrefix("<svg xmlns=\"http://www.w3.org/2000/svg\""))
}
