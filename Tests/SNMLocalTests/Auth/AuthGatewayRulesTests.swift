import SNMWire
import Testing

@testable import SNMGateway
@testable import SNMLocal
@testable import SNMLocalAuth

/// The small rules of the account flows, each as GoTrue has it.
@Suite struct AuthGatewayRulesTests {
  let gateway: AuthGateway = {
    let pool = PGPool(conninfo: "host=/nonexistent dbname=none", size: 1, waitLimit: 0.1)
    return AuthGateway(
      pool: pool, signer: JWTSigner(secret: Array("rules-test-secret-rules-test-secret".utf8)),
      settings: AuthSettings(issuer: "http://127.0.0.1:54321/auth/v1"), now: { 1_000_000 })
  }()

  @Test(arguments: [
    ("http://localhost:3000/welcome", "http://localhost:3000/welcome"),
    ("https://127.0.0.1/x?y=1", "https://127.0.0.1/x?y=1"),
    ("http://[::1]:8080/", "http://[::1]:8080/"),
    ("https://evil.example.com/", "http://127.0.0.1:54321"),
    ("http://localhost@evil.example.com/", "http://127.0.0.1:54321"),
    ("http://127.0.0.1.evil.example.com/", "http://127.0.0.1:54321"),
    ("javascript:alert(1)", "http://127.0.0.1:54321"),
    ("http://localhost/\u{1b}[2J", "http://127.0.0.1:54321"),
    ("", "http://127.0.0.1:54321"),
  ])
  func redirectsStayOnThisMachine(requested: String, used: String) {
    #expect(gateway.settings.redirectURL(requested) == used)
  }

  /// Where `/verify` and the OAuth flow put what they tell the browser (GoTrue's
  /// `url.Values.Encode`: sorted by name, spaces as `+`).
  @Test func redirectsCarryItemsWhereGoTrueDoes() {
    let items = [("error", "access_denied"), ("error_description", "no way")]
    #expect(
      AuthRedirect.adding(items, toQueryOf: "http://localhost:3000/a?x=1#keep")
        == "http://localhost:3000/a?x=1&error=access_denied&error_description=no+way#keep")
    #expect(AuthRedirect.adding([("code", "c")], toQueryOf: "http://h/") == "http://h/?code=c")
    #expect(
      AuthRedirect.errorLocation(items, target: "http://h/p#old")
        == "http://h/p?error=access_denied&error_description=no+way"
        + "#error=access_denied&error_description=no+way&sb=")
    #expect(
      AuthRedirect.withFragment([("message", "a b"), ("sb", "")], target: "http://h/#old")
        == "http://h/#message=a+b&sb=")
    let session = JSONValue.object([
      .init("access_token", .string("at")), .init("expires_at", .int(20)),
      .init("expires_in", .int(10)), .init("refresh_token", .string("rt")),
    ])
    #expect(
      AuthRedirect.formEncode(AuthRedirect.sessionItems(session, [("type", "signup"), ("sb", "")]))
        == "access_token=at&expires_at=20&expires_in=10&refresh_token=rt&sb=&token_type=bearer"
        + "&type=signup")
    #expect(AuthRedirect.seeOther("http://h/").status == 303)
    #expect(AuthRedirect.found("http://h/").headers["Location"] == "http://h/")
  }

  @Test func uuidsAreReadInTheirLongForm() {
    #expect(
      UUIDText.canonical("0C8E5F7A-6B9D-4F1E-9A3B-2D4C6E8F0A1B")
        == "0c8e5f7a-6b9d-4f1e-9a3b-2d4c6e8f0a1b")
    for text in [
      "0c8e5f7a6b9d4f1e9a3b2d4c6e8f0a1b", "0c8e5f7a-6b9d-4f1e-9a3b-2d4c6e8f0a1", "not-a-uuid",
      "0c8e5f7a-6b9d-4f1e-9a3b-2d4c6e8f0a1g", "0c8e5f7a+6b9d-4f1e-9a3b-2d4c6e8f0a1b",
      "0c8e5f7a-6b9d-4f1e-9a3b-2d4c6e8f0a1\u{e9}",
    ] {
      #expect(UUIDText.canonical(text) == nil, "\(text)")
    }
  }

  @Test func banDurationsAreGoDurations() throws {
    #expect(try AuthAdminAPI.banSeconds("24h") == 86_400)
    #expect(try AuthAdminAPI.banSeconds("1h30m") == 5_400)
    #expect(try AuthAdminAPI.banSeconds("500ms") == 0.5)
    #expect(try AuthAdminAPI.banSeconds("none") == nil)
    #expect(try AuthAdminAPI.banSeconds(nil) == nil)
    #expect(throws: AuthFailure.self) { try AuthAdminAPI.banSeconds("5") }
    #expect(throws: AuthFailure.self) { try AuthAdminAPI.banSeconds("xh") }
  }

  @Test func scopesAreQuotedAsGoQuotes() {
    #expect(AuthGateway.goQuoted("bogus") == #""bogus""#)
    #expect(AuthGateway.goQuoted("a\"b\\c\n\u{1b}") == #""a\"b\\c\n\x1b""#)
  }

  @Test func phonesAndIDs() {
    #expect(PhoneNumber.isE164("+15555550100") && PhoneNumber.isE164("1 555 555 0100"))
    #expect(!PhoneNumber.isE164("15555550100-invalid") && !PhoneNumber.isE164("+0123"))
    #expect(
      (try? AuthGateway.uuidParameter("0C8E5F7A-6B9D-4F1E-9A3B-2D4C6E8F0A1B", name: "user_id"))
        == "0c8e5f7a-6b9d-4f1e-9a3b-2d4c6e8f0a1b")
    #expect(throws: AuthFailure.self) {
      try AuthGateway.uuidParameter("0c8e5f7a6b9d4f1e9a3b2d4c6e8f0a1b----", name: "user_id")
    }
  }

  @Test func codesAreSixDigitsAndHashedAsGoTrueHashesThem() throws {
    #expect(
      try OneTimeCode.hash(address: "kim@example.com", otp: "123456")
        == "6b079f16ecbe1c133eab7835cdef7ffad3c623efc25abd3a874646d9")
    for _ in 0..<50 {
      let otp = try OneTimeCode.newOTP()
      #expect(otp.count == 6 && otp.allSatisfy(\.isNumber))
    }
  }

  @Test(arguments: [
    ("2024-01-01", AuthErrorFormat.dated("2024-01-01")),
    ("2025-06-01", .dated("2024-01-01")), ("2023-12-31", .legacy), ("2024-13-01", .legacy),
    ("soon", .legacy), ("", .legacy),
  ])
  func apiVersionsMapToGoTruesClosest(sent: String, format: AuthErrorFormat) {
    var headers = HTTPHeaders()
    headers["X-Supabase-Api-Version"] = sent
    let request = HTTPRequest(method: "GET", target: "/auth/v1/user", headers: headers)
    #expect(AuthErrorFormat(request) == format)
  }

  @Test func switchesNameTheirFlags() {
    var switches = AuthSwitches()
    #expect(
      AuthSwitches.names.map { AuthSwitches.flag($0, on: switches[$0]) } == [
        "--no-confirm-email", "--signup", "--anonymous", "--no-secure-password-change",
        "--no-phone-signup", "--no-confirm-phone", "--no-apple", "--no-github",
        "--no-oauth-server",
      ])
    switches.apply(["confirm_email": true, "signup": false, "phone_signup": true])
    var settings = AuthSettings(issuer: "http://127.0.0.1:54321/auth/v1")
    switches.configure(&settings)
    #expect(settings.confirmEmail && !settings.signupEnabled && settings.anonymousEnabled)
    #expect(settings.phoneEnabled && !settings.confirmPhone && !settings.oauthServerEnabled)
    switches.apply(["oauth_server": true])
    switches.configure(&settings)
    #expect(settings.oauthServerEnabled)
    #expect(settings.siteURL == "http://127.0.0.1:54321")
  }
}
