import Foundation
import SNMNetwork
import Testing

@testable import SNMSupabase

@Suite struct AuthEndpointTests {
  let base = "http://127.0.0.1:54399"

  @Test func anonymousSignUpSendsAnEmptyObject() {
    let endpoint = AuthEndpoint.signUpAnonymously.endpoint(base: base)
    #expect(endpoint.method == .post)
    #expect(endpoint.url == "http://127.0.0.1:54399/auth/v1/signup")
    #expect(endpoint.body.map { String(decoding: $0, as: UTF8.self) } == "{}")
    #expect(endpoint.headers["Content-Type"] == "application/json")
    #expect(endpoint.headers["X-Supabase-Api-Version"] == "2024-01-01")
  }

  @Test func passwordGrantAndRefreshGrant() {
    let signIn = AuthEndpoint.signInWithPassword(email: "kim@example.com", password: "pw\"1")
      .endpoint(base: base)
    #expect(signIn.url == "http://127.0.0.1:54399/auth/v1/token?grant_type=password")
    #expect(
      signIn.body.map { String(decoding: $0, as: UTF8.self) }
        == #"{"email":"kim@example.com","password":"pw\"1"}"#)
    let refresh = AuthEndpoint.refresh(refreshToken: "abc123def456").endpoint(base: base)
    #expect(refresh.url == "http://127.0.0.1:54399/auth/v1/token?grant_type=refresh_token")
    #expect(
      refresh.body.map { String(decoding: $0, as: UTF8.self) }
        == #"{"refresh_token":"abc123def456"}"#)
  }

  @Test func logoutCarriesTheSessionTokenAndScopeWithoutABody() {
    let endpoint = AuthEndpoint.signOut(accessToken: "jwt", scope: .local).endpoint(base: base)
    #expect(endpoint.url == "http://127.0.0.1:54399/auth/v1/logout?scope=local")
    #expect(endpoint.headers["Authorization"] == "Bearer jwt")
    #expect(endpoint.body == nil)
  }

  @Test func descriptionsNeverHoldSecrets() {
    let calls: [AuthEndpoint] = [
      .signInWithPassword(email: "kim@example.com", password: "hunter2"),
      .signUp(email: "kim@example.com", password: "hunter2"),
      .refresh(refreshToken: "rt-secret"), .signOut(accessToken: "at-secret", scope: .global),
    ]
    for call in calls {
      let text = "\(call)"
      #expect(!text.contains("hunter2") && !text.contains("secret"))
    }
  }
}
