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

  func body(_ endpoint: Endpoint) -> String? {
    endpoint.body.map { String(decoding: $0, as: UTF8.self) }
  }

  @Test func accountFlowsSendGoTruesShapes() {
    let update = AuthEndpoint.updateUser(
      accessToken: "jwt", attributes: UserAttributes(password: "n3w", nonce: "123456")
    ).endpoint(base: base)
    #expect(update.method == .put)
    #expect(update.url == "http://127.0.0.1:54399/auth/v1/user")
    #expect(update.headers["Authorization"] == "Bearer jwt")
    #expect(body(update) == #"{"password":"n3w","nonce":"123456"}"#)
    let reauth = AuthEndpoint.reauthenticate(accessToken: "jwt").endpoint(base: base)
    #expect(reauth.method == .get && reauth.body == nil)
    #expect(
      body(AuthEndpoint.recover(email: "k@e.c").endpoint(base: base)) == #"{"email":"k@e.c"}"#)
    #expect(
      body(AuthEndpoint.otp(to: .email("k@e.c"), createUser: true).endpoint(base: base))
        == #"{"email":"k@e.c","create_user":true}"#)
    #expect(
      body(
        AuthEndpoint.verify(to: .email("k@e.c"), token: "1", type: "signup").endpoint(base: base))
        == #"{"type":"signup","email":"k@e.c","token":"1"}"#)
    // A phone: supabase-js' shapes, a text by default.
    #expect(
      body(AuthEndpoint.otp(to: .phone("+15555550100"), createUser: true).endpoint(base: base))
        == #"{"phone":"+15555550100","create_user":true,"channel":"sms"}"#)
    #expect(
      body(AuthEndpoint.verify(to: .phone("+1555"), token: "1", type: "sms").endpoint(base: base))
        == #"{"type":"sms","phone":"+1555","token":"1"}"#)
    #expect(
      body(AuthEndpoint.resend(type: "sms", to: .phone("+1555")).endpoint(base: base))
        == #"{"type":"sms","phone":"+1555"}"#)
    #expect(
      body(AuthEndpoint.signUp(email: "k@e.c", password: "p", data: ["n": 1]).endpoint(base: base))
        == #"{"email":"k@e.c","password":"p","data":{"n":1}}"#)
  }

  @Test func factorsLiveUnderTheirID() {
    let id = "0c8e5f7a-6b9d-4f1e-9a3b-2d4c6e8f0a1b"
    let verify = AuthEndpoint.verifyFactor(
      accessToken: "jwt", factorID: id, challengeID: "c1", code: "123456"
    ).endpoint(base: base)
    #expect(verify.url == "http://127.0.0.1:54399/auth/v1/factors/\(id)/verify")
    #expect(body(verify) == #"{"challenge_id":"c1","code":"123456"}"#)
    let unenroll = AuthEndpoint.unenrollFactor(accessToken: "jwt", factorID: id)
      .endpoint(base: base)
    #expect(unenroll.method == .delete && unenroll.body == nil)
    let enroll = AuthEndpoint.enrollFactor(accessToken: "jwt", friendlyName: "p", issuer: nil)
      .endpoint(base: base)
    #expect(body(enroll) == #"{"factor_type":"totp","friendly_name":"p"}"#)
  }

  @Test func adminRoutes() {
    let list = AdminEndpoint.listUsers(page: 1, perPage: 2, filter: "ci-").endpoint(base: base)
    #expect(list.url == "http://127.0.0.1:54399/auth/v1/admin/users?page=1&per_page=2&filter=ci-")
    let delete = AdminEndpoint.deleteUser(id: "x y", soft: true).endpoint(base: base)
    #expect(delete.url == "http://127.0.0.1:54399/auth/v1/admin/users/x%20y")
    #expect(body(delete) == #"{"should_soft_delete":true}"#)
    let link = AdminEndpoint.generateLink(
      type: "signup", email: "k@e.c", password: "p", data: nil
    ).endpoint(base: base)
    #expect(body(link) == #"{"type":"signup","email":"k@e.c","password":"p"}"#)
    let inbox = AdminEndpoint.inbox(address: "k+1@e.c", limit: 1).endpoint(base: base)
    #expect(inbox.url == "http://127.0.0.1:54399/inbox/v1/messages?to=k%2B1%40e.c&limit=1")
  }
}
