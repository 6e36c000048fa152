import Foundation
import Testing

@testable import SNMSupabase

@Suite struct SupabaseSessionTests {
  /// GoTrue's answer to an anonymous sign-in (shape of supabase-swift's fixture).
  static let anonymous = """
    {"access_token":"eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJiYmZhOTI1NC0xMjM0LTQ1NjctODlhYi1jZGVmMDEyMzQ1NjciLCJyb2xlIjoiYXV0aGVudGljYXRlZCIsInNlc3Npb25faWQiOiJjMjg5ZmE3MCIsImlzX2Fub255bW91cyI6dHJ1ZSwiZXhwIjoxNzExOTk0NzEzfQ.sig",
     "token_type":"bearer","expires_in":3600,"expires_at":1711994713,
     "refresh_token":"0xS9iJUWdXnWlCJtFiXk5A",
     "user":{"id":"bbfa9254-1234-4567-89ab-cdef01234567","aud":"authenticated",
       "role":"authenticated","email":"","phone":"","app_metadata":{},"user_metadata":{},
       "identities":[],"is_anonymous":true}}
    """

  @Test func decodesGoTruesSessionAndItsClaims() throws {
    let now = Date(timeIntervalSince1970: 1_711_991_113)
    let session = try SupabaseSession(response: Data(Self.anonymous.utf8), now: now)
    #expect(session.expiresAt == Date(timeIntervalSince1970: 1_711_994_713))
    #expect(session.obtainedAt == now)
    #expect(session.user.isAnonymous)
    #expect(session.user.displayName == "anonymous")
    #expect(session.claims.role == "authenticated")
    #expect(session.claims.sessionID == "c289fa70")
    #expect(session.claims.subject == "bbfa9254-1234-4567-89ab-cdef01234567")
  }

  @Test func aUserWithoutTokensMeansConfirmationIsRequired() {
    let body = #"{"id":"bbfa9254-1234-4567-89ab-cdef01234567","email":"kim@example.com"}"#
    #expect(throws: AuthResponseError.missingSession) {
      _ = try SupabaseSession(response: Data(body.utf8), now: Date())
    }
    #expect(throws: AuthResponseError.self) {
      _ = try SupabaseSession(response: Data("[]".utf8), now: Date())
    }
  }

  @Test func storedFormRoundTripsAndDescriptionHidesTokens() throws {
    let now = Date(timeIntervalSince1970: 1_711_991_113.25)
    let session = try SupabaseSession(response: Data(Self.anonymous.utf8), now: now)
    let data = try JSONEncoder().encode(session)
    #expect(try JSONDecoder().decode(SupabaseSession.self, from: data) == session)
    #expect(!"\(session)".contains(session.accessToken))
    #expect(!"\(session)".contains(session.refreshToken))
  }

  /// Numbers from the wire that no date can hold (or no lifetime can be): refused by name, never
  /// kept (1e300 once crashed `session show` on every later run).
  @Test(arguments: [
    ("expires_at", "1e300"), ("expires_at", "-1e300"), ("expires_at", "-1"),
    ("expires_at", "253402300800"), ("expires_at", "\"NaN\""), ("expires_in", "1e300"),
    ("expires_in", "-5"),
  ])
  func aNumberNoDateCanHoldIsRefused(field: String, value: String) throws {
    let body = Self.anonymous.replacingOccurrences(
      of: field == "expires_at" ? #""expires_at":1711994713"# : #""expires_in":3600"#,
      with: "\"\(field)\":\(value)")
    #expect(body != Self.anonymous)
    #expect(throws: AuthResponseError.malformed("bad '\(field)'")) {
      _ = try SupabaseSession(response: Data(body.utf8), now: Date())
    }
  }

  @Test(arguments: ["1e300", "-1e300", "1e20", "\"NaN\""])
  func aStoredSessionWithADateOutOfRangeDoesNotDecode(value: String) throws {
    let session = try SupabaseSession(response: Data(Self.anonymous.utf8), now: Date())
    let stored = String(decoding: try JSONEncoder().encode(session), as: UTF8.self)
      .replacingOccurrences(of: #""expires_at":1711994713"#, with: #""expires_at":"# + value)
    #expect(throws: DecodingError.self) {
      _ = try JSONDecoder().decode(SupabaseSession.self, from: Data(stored.utf8))
    }
    #expect(session.problem == nil)
    var broken = session
    broken.expiresAt = Date(timeIntervalSince1970: 1e300)
    #expect(broken.problem == "bad 'expires_at'")
    #expect("\(broken)".contains("expiresAt: 0"))
  }

  /// A token whose payload is `json`, unsigned.
  static func token(_ json: String) -> String {
    let payload = Data(json.utf8).base64EncodedString().replacingOccurrences(of: "=", with: "")
      .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
    return "e30.\(payload).s"
  }

  @Test(arguments: [
    (#"{"amr":[{"method":"password"}],"email":"k@x.io"}"#, "email"),
    (#"{"amr":[{"method":"otp"}],"email":"","phone":"15555550100"}"#, "phone"),
    (#"{"amr":[{"method":"anonymous"}]}"#, "anonymous"),
    (
      #"{"amr":[{"method":"oauth"}],"app_metadata":{"provider":"apple","providers":["apple"]}}"#,
      "apple"
    ),
    // A user who signed up by e-mail and then with GitHub: the provider linked last.
    (
      #"{"amr":[{"method":"oauth"}],"app_metadata":{"provider":"email","providers":["email","github"]}}"#,
      "github"
    ),
    (#"{"amr":[{"method":"password"},{"method":"totp"}],"email":"k@x.io","aal":"aal2"}"#, "email"),
  ])
  func theSignInProviderComesFromTheAMR(_ payload: String, _ provider: String) {
    #expect(AccessTokenClaims(jwt: Self.token(payload)).signInProvider == provider)
  }

  @Test func aTokenWithoutAMRNamesNoProvider() {
    #expect(AccessTokenClaims(jwt: Self.token(#"{"role":"anon"}"#)).signInProvider == nil)
  }

  @Test func claimsWithAnExpiryNoDateCanHoldHaveNone() {
    // {"exp":1e300,"iat":-1e300,"role":"anon"}
    let claims = AccessTokenClaims(
      jwt: "e30.eyJleHAiOjFlMzAwLCJpYXQiOi0xZTMwMCwicm9sZSI6ImFub24ifQ.s")
    #expect(claims.role == "anon")
    #expect(claims.expiresAt == nil)
    #expect(claims.issuedAt == nil)
  }
}
