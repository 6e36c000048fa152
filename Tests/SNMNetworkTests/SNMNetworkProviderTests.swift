import Foundation
import SNMTestSupport
import SNMWire
import Testing

@testable import SNMNetwork

/// One error body a server may send and what the decoded error must hold.
struct ServerErrorCase: Sendable, CustomTestStringConvertible {
  let name: String
  let status: Int
  let body: String
  let code: SNMErrorCode?
  let message: String?
  let details: JSONValue?
  let hint: String?
  let description: String
  var testDescription: String { name }
}

@Suite(.timeLimit(.minutes(1))) struct SNMNetworkProviderTests {
  static let key = "test-anon-key"

  func provider(timeout: TimeInterval = 10) -> SNMNetworkProvider {
    SNMNetworkProvider(configuration: .init(apiKey: Self.key, timeout: timeout))
  }

  @Test func sendsExactTargetHeadersAndBody() async throws {
    let server = try LoopbackHTTPServer { _ in .respond(status: 201, body: #"[{"id":1}]"#) }
    defer { server.stop() }
    let endpoint = Endpoint(
      baseURL: server.baseURL + "/", path: "/rest/v1/user_info", method: .post,
      query: [.init("select", "id,name"), .init("name", "eq.a+b;c&d (é)")],
      headers: ["Content-Type": "application/json", "Prefer": "return=representation"],
      body: Data(#"{"name":"Kim"}"#.utf8))

    let response = try await provider().send(endpoint)

    #expect(response.status == 201)
    #expect(try response.json() == [["id": 1]])
    let request = try #require(server.requests.first)
    #expect(request.method == "POST")
    #expect(
      request.target == "/rest/v1/user_info?select=id%2Cname&name=eq.a%2Bb%3Bc%26d%20%28%C3%A9%29")
    #expect(request.headers["apikey"] == Self.key)
    #expect(request.headers["authorization"] == "Bearer \(Self.key)")
    #expect(request.headers["x-client-info"] == "snm/\(SNMNetwork.version)")
    #expect(request.headers["content-type"] == "application/json")
    #expect(request.headers["prefer"] == "return=representation")
    #expect(String(decoding: request.body, as: UTF8.self) == #"{"name":"Kim"}"#)
  }

  @Test func sendsTheAccessTokenAndKeepsAnExplicitAuthorization() async throws {
    let server = try LoopbackHTTPServer { _ in .respond(status: 200, body: "[]") }
    defer { server.stop() }
    let provider = provider()
    let endpoint = Endpoint(baseURL: server.baseURL, path: "/rest/v1/t")
    _ = try await provider.send(endpoint, accessToken: "user.jwt")
    var explicit = endpoint
    explicit.headers["Authorization"] = "Bearer other"
    _ = try await provider.send(explicit, accessToken: "user.jwt")

    let requests = server.requests
    #expect(requests.map { $0.headers["authorization"] } == ["Bearer user.jwt", "Bearer other"])
    #expect(requests.allSatisfy { $0.headers["apikey"] == Self.key })
  }

  @Test func newFormatKeysAreNotSentAsBearer() async throws {
    let server = try LoopbackHTTPServer { _ in .respond(status: 200, body: "[]") }
    defer { server.stop() }
    let provider = SNMNetworkProvider(configuration: .init(apiKey: "sb_publishable_x"))
    _ = try await provider.send(Endpoint(baseURL: server.baseURL, path: "/rest/v1/t"))
    let request = try #require(server.requests.first)
    #expect(request.headers["authorization"] == nil)
    #expect(request.headers["apikey"] == "sb_publishable_x")
  }

  @Test func refusedConnectionIsUnreachable() async throws {
    try await LoopbackHTTPServer.withRefusingPort { port in
      let url = "http://127.0.0.1:\(port)/rest/v1/t"
      await #expect(throws: SNMNetworkError.unreachable(url: url, cause: "connection refused")) {
        try await provider().send(Endpoint(baseURL: "http://127.0.0.1:\(port)", path: "/rest/v1/t"))
      }
      let error = SNMNetworkError.unreachable(url: url, cause: "connection refused")
      #expect(error.description == "could not reach \(url): connection refused")
    }
  }

  @Test func silentServerTimesOut() async throws {
    let server = try LoopbackHTTPServer { _ in .hang }
    defer { server.stop() }
    let url = server.baseURL + "/rest/v1/t"
    await #expect(throws: SNMNetworkError.timedOut(url: url, seconds: 0.5)) {
      try await provider(timeout: 0.5).send(Endpoint(baseURL: server.baseURL, path: "/rest/v1/t"))
    }
    #expect(
      SNMNetworkError.timedOut(url: url, seconds: 0.5).description
        == "no answer from \(url) within 0.5 s (timed out)")
  }

  static let serverErrors: [ServerErrorCase] = [
    .init(
      name: "unique violation with string details", status: 409,
      body: #"{"code":"23505","details":"Key (id)=(1) already exists.","hint":null,"#
        + #""message":"duplicate key value violates unique constraint \"user_pkey\""}"#,
      code: .uniqueViolation,
      message: #"duplicate key value violates unique constraint "user_pkey""#,
      details: "Key (id)=(1) already exists.", hint: nil,
      description:
        #"server answered 409: duplicate key value violates unique constraint "user_pkey" (23505)"#
        + "\ndetails: Key (id)=(1) already exists."),
    .init(
      name: "single with null details and a hint", status: 406,
      body: #"{"code":"PGRST116","details":null,"hint":"use maybe single","#
        + #""message":"Cannot coerce the result to a single JSON object"}"#,
      code: .notOneRow, message: "Cannot coerce the result to a single JSON object", details: .null,
      hint: "use maybe single",
      description:
        "server answered 406: Cannot coerce the result to a single JSON object (PGRST116)"
        + "\nhint: use maybe single"),
    .init(
      name: "ambiguous embed with array details", status: 300,
      body: #"{"code":"PGRST201","details":[{"cardinality":"many-to-one"},"b"],"hint":"Try","#
        + #""message":"Could not embed"}"#,
      code: .ambiguousRelationship, message: "Could not embed",
      details: [["cardinality": "many-to-one"], "b"], hint: "Try",
      description: "server answered 300: Could not embed (PGRST201)"
        + "\ndetails: {\"cardinality\":\"many-to-one\"}; b\nhint: Try"),
    .init(
      name: "minimal verbosity", status: 404,
      body:
        #"{"code":"PGRST205","message":"Could not find the table 'public.x' in the schema cache"}"#,
      code: .tableNotFound, message: "Could not find the table 'public.x' in the schema cache",
      details: nil, hint: nil,
      description:
        "server answered 404: Could not find the table 'public.x' in the schema cache (PGRST205)"),
    .init(
      name: "GoTrue legacy error", status: 400,
      body: #"{"code":400,"error_code":"invalid_credentials","msg":"Invalid login credentials"}"#,
      code: "invalid_credentials", message: "Invalid login credentials", details: nil, hint: nil,
      description: "server answered 400: Invalid login credentials (invalid_credentials)"),
    .init(
      name: "OAuth-style error", status: 400,
      body: #"{"error":"invalid_grant","error_description":"Invalid Refresh Token"}"#,
      code: "invalid_grant", message: "Invalid Refresh Token", details: nil, hint: nil,
      description: "server answered 400: Invalid Refresh Token (invalid_grant)"),
    .init(
      name: "gateway HTML page", status: 502, body: "<html>Bad Gateway</html>\n", code: nil,
      message: nil, details: nil, hint: nil,
      description: "server answered 502: <html>Bad Gateway</html>"),
    .init(
      name: "empty body", status: 500, body: "", code: nil, message: nil, details: nil, hint: nil,
      description: "server answered 500"),
    .init(
      name: "truncated JSON body", status: 400, body: #"{"code":"PGRST100","mess"#, code: nil,
      message: nil, details: nil, hint: nil,
      description: #"server answered 400: {"code":"PGRST100","mess"#),
  ]

  @Test(arguments: serverErrors)
  func decodesNon2xxAnswers(_ testCase: ServerErrorCase) async throws {
    let server = try LoopbackHTTPServer { _ in
      .respond(
        status: testCase.status, headers: ["Content-Type": "application/json"], body: testCase.body)
    }
    defer { server.stop() }
    let error = await #expect(throws: SNMNetworkError.self) {
      try await provider().send(Endpoint(baseURL: server.baseURL, path: "/rest/v1/t"))
    }
    let failure = try #require(error?.serverError)
    #expect(failure.status == testCase.status)
    #expect(failure.code == testCase.code)
    #expect(failure.message == testCase.message)
    #expect(failure.details == testCase.details)
    #expect(failure.hint == testCase.hint)
    #expect(failure.response.text == testCase.body)
    #expect(error?.description == testCase.description)
  }

  @Test func malformedJSONBodyIsReportedWithItsOffset() async throws {
    let server = try LoopbackHTTPServer { _ in .respond(status: 200, body: #"[{"id":1},"#) }
    defer { server.stop() }
    let response = try await provider().send(Endpoint(baseURL: server.baseURL, path: "/rest/v1/t"))
    #expect(
      throws: SNMNetworkError.malformedResponse(
        url: response.url,
        reason:
          "the body is not JSON: invalid JSON at byte 10: expected a JSON value, found end of input"
      )
    ) {
      try response.json()
    }
  }

  @Test func emptySuccessBodyIsNull() async throws {
    let server = try LoopbackHTTPServer { _ in .respond(status: 204) }
    defer { server.stop() }
    let response = try await provider().send(Endpoint(baseURL: server.baseURL, path: "/t"))
    #expect(response.status == 204)
    #expect(try response.json() == .null)
  }

  @Test func answerThatIsNotHTTPIsMalformed() async throws {
    let server = try LoopbackHTTPServer { _ in .garbage("SSH-2.0-OpenSSH_9.6\r\n") }
    defer { server.stop() }
    let error = await #expect(throws: SNMNetworkError.self) {
      try await provider().send(Endpoint(baseURL: server.baseURL, path: "/rest/v1/t"))
    }
    let url = server.baseURL + "/rest/v1/t"
    #expect(
      error
        == .malformedResponse(
          url: url, reason: "the answer is not valid HTTP (Received HTTP/0.9 when not allowed)"))
  }

  @Test(arguments: ["localhost:54321", "ftp://127.0.0.1", "http://bad host"])
  func invalidBaseURLIsRefusedBeforeSending(_ base: String) async throws {
    await #expect(throws: SNMNetworkError.invalidURL(base + "/rest/v1/t")) {
      try await provider().send(Endpoint(baseURL: base, path: "/rest/v1/t"))
    }
  }

  @Test func configurationNeverPrintsTheKey() {
    let configuration = SNMNetworkProvider.Configuration(apiKey: "secret-key")
    #expect(!String(describing: configuration).contains("secret-key"))
    #expect(!String(reflecting: configuration).contains("secret-key"))
    var dumped = ""
    dump(configuration, to: &dumped)
    #expect(!dumped.contains("secret-key"))
  }
}
