import Foundation
import SNMNetwork
import SNMSupabase
import SNMTestSupport
import SNMWire
import Synchronization
import Testing

/// The DB and Storage managers as library users build them (no `@testable`): the shared init
/// gives both the same project, and a manager made from another's link sends with its project,
/// API key and token closure.
@Suite(.timeLimit(.minutes(1))) struct ProjectLinkTests {
  @Test func bothManagersTakeTheProjectAndDefaultToTheAnonKey() {
    let config = SupabaseConfig(url: "http://127.0.0.1:54321", anonKey: "anon-key")
    let db = SupabaseDBManager(config: config)
    let storage = SupabaseStorageManager(config: config)
    #expect(db.config == config && storage.config == config)
    #expect(db.provider.configuration.apiKey == "anon-key")
    #expect(storage.provider.configuration.apiKey == "anon-key")
    #expect(storage.storageURL == "http://127.0.0.1:54321/storage/v1")
  }

  @Test func aStorageManagerOnTheDBManagersLinkSharesItsProjectAndToken() async throws {
    let server = try LoopbackHTTPServer { _ in .respond(status: 200, body: "[]") }
    defer { server.stop() }
    let asked = Mutex(0)
    let db = SupabaseDBManager(
      config: SupabaseConfig(url: server.baseURL, anonKey: "anon-key"),
      accessToken: {
        asked.withLock { $0 += 1 }
        return "jwt-1"
      })
    let storage = SupabaseStorageManager(link: db.link)
    #expect(storage.config == db.config)
    #expect(storage.provider === db.provider)

    _ = try await storage.listBuckets().request()
    _ = try await db.fetchData().setTable("dog").request()

    #expect(asked.withLock { $0 } == 2)
    #expect(server.requests.map(\.target) == ["/storage/v1/bucket", "/rest/v1/dog"])
    #expect(
      server.requests.allSatisfy {
        $0.headers["authorization"] == "Bearer jwt-1" && $0.headers["apikey"] == "anon-key"
      })
  }
}
