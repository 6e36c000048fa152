import Foundation
import SNMNetwork
import SNMTestSupport
import Testing

@testable import SNMSupabase

/// The retry rule through the real request layer: `SupabaseDBManager` takes its token from the
/// session manager, and a 401 "JWT expired" answer is retried once with the refreshed token.
@Suite(.timeLimit(.minutes(1))) struct SessionRetryWireTests {
  @Test func anExpiredJWTAnswerIsRetriedWithTheRefreshedToken() async throws {
    let server = try LoopbackHTTPServer { request in
      if request.headers["authorization"] == "Bearer access-1" {
        return .respond(
          status: 401,
          headers: [
            "Content-Type": "application/json",
            "WWW-Authenticate": #"Bearer error="invalid_token", error_description="JWT expired""#,
          ],
          body: #"{"code":"PGRST303","details":null,"hint":null,"message":"JWT expired"}"#)
      }
      return .respond(
        status: 200, headers: ["Content-Type": "application/json"], body: #"[{"id":1}]"#)
    }
    defer { server.stop() }
    let rig = try Rig()
    defer { rig.directory.remove() }
    let sessions = rig.manager()
    await sessions.saveSession(for: rig.auth.issue())
    let db = SupabaseDBManager(
      config: SupabaseConfig(url: server.baseURL, anonKey: "anon-key"),
      accessToken: { try await sessions.requestToken() })

    let response = try await sessions.retryingAfterRefresh {
      try await db.fetchData().setTable("user_info").request()
    }
    #expect(response.value == [["id": 1]])
    #expect(
      server.requests.map { $0.headers["authorization"] }
        == ["Bearer access-1", "Bearer access-2"])
    #expect(rig.auth.refreshedTokens == ["refresh-1"])
  }

  @Test func signedOutRequestsCarryTheAPIKey() async throws {
    let server = try LoopbackHTTPServer { _ in .respond(status: 200, body: "[]") }
    defer { server.stop() }
    let rig = try Rig()
    defer { rig.directory.remove() }
    let sessions = rig.manager()
    let db = SupabaseDBManager(
      config: SupabaseConfig(url: server.baseURL, anonKey: "anon-key"),
      accessToken: { try await sessions.requestToken() })
    _ = try await sessions.retryingAfterRefresh {
      try await db.fetchData().setTable("user_info").request()
    }
    #expect(server.requests.map { $0.headers["authorization"] } == ["Bearer anon-key"])
  }
}
