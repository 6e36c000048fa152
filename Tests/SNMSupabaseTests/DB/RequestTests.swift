import Foundation
import SNMNetwork
import SNMTestSupport
import SNMWire
import Synchronization
import Testing

@testable import SNMSupabase

/// `request()` against a loopback server: the wire as sent, the token closure, and how answers
/// are decoded.
@Suite(.timeLimit(.minutes(1))) struct RequestTests {
  static let key = "anon-key"

  func manager(
    _ server: LoopbackHTTPServer, token: @escaping @Sendable () async throws -> String? = { nil }
  )
    -> SupabaseDBManager
  {
    SupabaseDBManager(
      config: SupabaseConfig(url: server.baseURL, anonKey: Self.key), accessToken: token)
  }

  @Test func sendsTheBuiltRequestWithAFreshTokenEachTime() async throws {
    let server = try LoopbackHTTPServer { _ in
      .respond(status: 200, headers: ["Content-Range": "0-0/42"], body: #"[{"id":1,"name":"김치"}]"#)
    }
    defer { server.stop() }
    let calls = Mutex(0)
    let db = manager(server) {
      let call = calls.withLock { count in
        count += 1
        return count
      }
      return call == 1 ? nil : "jwt-\(call)"
    }
    let chain = db.fetchData().setTable("user_info")
      .setQuery(.select("*"), .equal("name", "a+b c"), .count(.exact))

    let first = try await chain.request()
    _ = try await chain.request()

    #expect(first.status == 200)
    #expect(first.value == [["id": 1, "name": "김치"]])
    #expect(first.count == 42)
    let requests = server.requests
    #expect(
      requests.map(\.target)
        == Array(repeating: "/rest/v1/user_info?select=%2A&name=eq.a%2Bb%20c", count: 2))
    #expect(requests.map { $0.headers["authorization"] } == ["Bearer \(Self.key)", "Bearer jwt-2"])
    #expect(
      requests.allSatisfy {
        $0.headers["prefer"] == "count=exact" && $0.headers["apikey"] == Self.key
      })
  }

  @Test func writesSendTheBodyAndHeaders() async throws {
    let server = try LoopbackHTTPServer { _ in .respond(status: 201) }
    defer { server.stop() }
    let response = try await manager(server).insertData().setTable("dog")
      .setBody(["name": "Bori", "age": 3]).request()
    #expect(response.status == 201)
    #expect(response.value == .null)
    let request = try #require(server.requests.first)
    #expect(request.method == "POST")
    #expect(String(decoding: request.body, as: UTF8.self) == #"{"name":"Bori","age":3}"#)
    #expect(request.headers["content-type"] == "application/json")
    #expect(request.headers["prefer"] == "return=minimal")
  }

  static let maybeSingleAnswers: [(String, JSONValue)] = [
    ("[]", .null), (#"[{"id":1}]"#, ["id": 1]),
  ]

  /// What `maybeSingle` makes of no row and one row (it asks for the array and picks).
  @Test(arguments: maybeSingleAnswers)
  func maybeSingleUnwrapsAtMostOneRow(_ body: String, _ expected: JSONValue) async throws {
    let server = try LoopbackHTTPServer { _ in .respond(status: 200, body: body) }
    defer { server.stop() }
    let response = try await manager(server).fetchData().setTable("t").setQuery(.maybeSingle)
      .request()
    #expect(response.value == expected)
    #expect(server.requests.first?.headers["accept"] != "application/vnd.pgrst.object+json")
  }

  /// An object is an rpc's answer (a function returning one), never a table read's: PostgREST
  /// answers a read with an array, and an object there is refused as malformed.
  @Test func maybeSingleTakesAnRPCsObjectAndRefusesAReadsObject() async throws {
    let server = try LoopbackHTTPServer { _ in .respond(status: 200, body: #"{"id":1}"#) }
    defer { server.stop() }
    let called = try await manager(server).rpc("f").setQuery(.maybeSingle).request()
    #expect(called.value == ["id": 1])
    let error = await #expect(throws: SNMNetworkError.self) {
      _ = try await manager(server).fetchData().setTable("t").setQuery(.maybeSingle).request()
    }
    guard case .malformedResponse(_, let reason)? = error else {
      Issue.record("not malformed: \(String(describing: error))")
      return
    }
    #expect(reason.hasPrefix("an object (HTTP 200) where an array of rows belongs"))
  }

  @Test func maybeSingleWithManyRowsFailsLikeSingle() async throws {
    let server = try LoopbackHTTPServer { _ in .respond(status: 200, body: #"[{"id":1},{"id":2}]"#)
    }
    defer { server.stop() }
    let error = await #expect(throws: SNMNetworkError.self) {
      try await manager(server).fetchData().setTable("t").setQuery(.maybeSingle).request()
    }
    let failure = try #require(error?.serverError)
    #expect(failure.status == 406)
    #expect(failure.code == .notOneRow)
    #expect(failure.detailsText == "The result contains 2 rows")
  }

  @Test func rowsAreParsedOnlyWhenTheValueIsRead() async throws {
    let server = try LoopbackHTTPServer { _ in
      .respond(status: 200, body: #"[{"id":1,"name":"Kim"},{"id":2,"name":"Lee"}]"#)
    }
    defer { server.stop() }
    let response = try await manager(server).fetchData().setTable("t").request()
    #expect(!response.document.isParsed)
    #expect(response.document.shape == JSONShape(kind: .array, count: 2, uniformObjects: true))
    #expect(response.document.firstRowKeys == ["id", "name"])
    #expect(!response.document.isParsed)
    #expect(response.value == [["id": 1, "name": "Kim"], ["id": 2, "name": "Lee"]])
    #expect(response.document.isParsed)
  }

  @Test func csvAnswersAreText() async throws {
    let server = try LoopbackHTTPServer { _ in .respond(status: 200, body: "id,name\n1,Kim\n") }
    defer { server.stop() }
    let response = try await manager(server).fetchData().setTable("t").setQuery(.csv).request()
    #expect(response.value == "id,name\n1,Kim\n")
    #expect(server.requests.first?.headers["accept"] == "text/csv")
  }

  @Test func serverErrorsArriveDecoded() async throws {
    let server = try LoopbackHTTPServer { _ in
      .respond(
        status: 409,
        body:
          #"{"code":"23505","details":"Key (id)=(1) already exists.","hint":null,"message":"duplicate key"}"#
      )
    }
    defer { server.stop() }
    let error = await #expect(throws: SNMNetworkError.self) {
      try await manager(server).insertData().setTable("t").setBody(["id": 1]).request()
    }
    #expect(error?.serverError?.code == .uniqueViolation)
    #expect(error?.serverError?.detailsText == "Key (id)=(1) already exists.")
  }

  @Test func malformedSuccessBodyIsReported() async throws {
    let server = try LoopbackHTTPServer { _ in .respond(status: 200, body: "[{") }
    defer { server.stop() }
    let error = await #expect(throws: SNMNetworkError.self) {
      try await manager(server).fetchData().setTable("t").request()
    }
    guard case .malformedResponse(_, let reason)? = error else {
      Issue.record("expected malformedResponse, got \(String(describing: error))")
      return
    }
    #expect(
      reason
        == "the body is not JSON: invalid JSON at byte 2: expected '\"' to start an object key, found end of input"
    )
  }

  @Test func aFailingTokenClosureSendsNothing() async throws {
    struct NoSession: Error, Equatable {}
    let server = try LoopbackHTTPServer { _ in .respond(status: 200, body: "[]") }
    defer { server.stop() }
    await #expect(throws: NoSession()) {
      try await manager(server) { throw NoSession() }.fetchData().setTable("t").request()
    }
    #expect(server.requests.isEmpty)
  }
}
