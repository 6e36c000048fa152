import Foundation
import SNMTestSupport
import Testing

@testable import SNMNetwork

/// Redirects, which the provider follows over either transport: the project's key and the
/// session's token stay with the project's origin.
@Suite(.timeLimit(.minutes(1))) struct SNMNetworkProviderRedirectTests {
  /// All hops of a request share one deadline, and each hop resumes on Swift Testing's
  /// cooperative threads, which the synchronous database tests beside it can hold for seconds:
  /// a 10 s deadline ran out in full runs on a loaded machine. The timeout is not under test
  /// here (HTTPTransportContractTests and SNMNetworkProviderTests are about it).
  func provider(_ kind: TransportKind) -> SNMNetworkProvider {
    SNMNetworkProvider(
      configuration: .init(apiKey: "the-project-key", timeout: 50), transport: kind.make())
  }

  @Test(arguments: TransportKind.all)
  func aRedirectToAnotherOriginCarriesNoKeyNorToken(_ kind: TransportKind) async throws {
    let elsewhere = try LoopbackHTTPServer { _ in .respond(status: 200, body: "[1]") }
    defer { elsewhere.stop() }
    for status in [301, 302, 303, 307, 308] {
      let project = try LoopbackHTTPServer { _ in
        .respond(status: status, headers: ["Location": elsewhere.baseURL + "/landed?x=1"])
      }
      defer { project.stop() }
      var endpoint = Endpoint(baseURL: project.baseURL, path: "/rest/v1/t")
      endpoint.headers["Cookie"] = "c=1"
      let response = try await provider(kind).send(endpoint, accessToken: "user.jwt")
      #expect(response.text == "[1]")
      let sent = try #require(project.requests.first)
      #expect(sent.headers["apikey"] == "the-project-key")
      #expect(sent.headers["authorization"] == "Bearer user.jwt")
      let landed = try #require(elsewhere.requests.last)
      #expect(landed.target == "/landed?x=1")
      #expect(landed.headers["apikey"] == nil, "\(status)")
      #expect(landed.headers["authorization"] == nil, "\(status)")
      #expect(landed.headers["cookie"] == nil, "\(status)")
      #expect(landed.headers["x-client-info"] != nil)
    }
  }

  @Test(arguments: TransportKind.all)
  func aBodyIsNeverRedirectedToAnotherOrigin(_ kind: TransportKind) async throws {
    let elsewhere = try LoopbackHTTPServer { _ in .respond(status: 200, body: "{}") }
    defer { elsewhere.stop() }
    let file = NSTemporaryDirectory() + "snm-redirect-body-" + UUID().uuidString
    try Data("the upload".utf8).write(to: URL(fileURLWithPath: file))
    defer { try? FileManager.default.removeItem(atPath: file) }
    for (status, method) in [(307, HTTPMethod.post), (308, .post), (301, .put), (302, .patch)] {
      let project = try LoopbackHTTPServer { _ in
        .respond(status: status, headers: ["Location": elsewhere.baseURL + "/landed"])
      }
      defer { project.stop() }
      var endpoint = Endpoint(
        baseURL: project.baseURL, path: "/storage/v1/object/b/x", method: method,
        body: Data("{}".utf8))
      let origin = "http://127.0.0.1:\(elsewhere.port)"
      await #expect(
        throws: SNMNetworkError.malformedResponse(
          url: endpoint.url,
          reason: "a \(status) redirect to \(origin), another origin, which would carry the "
            + "request's body there (not followed)")
      ) {
        try await provider(kind).send(endpoint)
      }
      endpoint.body = nil
      endpoint.bodyFile = file
      await #expect(throws: SNMNetworkError.self) { try await provider(kind).send(endpoint) }
    }
    #expect(elsewhere.requests.isEmpty, "no request, so no body, reached the other origin")
  }

  @Test(arguments: TransportKind.all)
  func aRedirectWithinTheOriginKeepsTheKeyAndTheMethod(_ kind: TransportKind) async throws {
    let server = try LoopbackHTTPServer { request in
      request.target == "/old"
        ? .respond(status: 307, headers: ["Location": "/new"])
        : .respond(status: 201, body: "[2]")
    }
    defer { server.stop() }
    let endpoint = Endpoint(
      baseURL: server.baseURL, path: "/old", method: .post, headers: ["Prefer": "return=minimal"],
      body: Data("{}".utf8))
    #expect(try await provider(kind).send(endpoint).text == "[2]")
    let second = try #require(server.requests.last)
    #expect(second.target == "/new")
    #expect(second.method == "POST")
    #expect(second.headers["apikey"] == "the-project-key")
    #expect(second.headers["authorization"] == "Bearer the-project-key")
    #expect(String(decoding: second.body, as: UTF8.self) == "{}")
  }

  @Test(arguments: TransportKind.all)
  func aSeeOtherAfterAGetIsFollowed(_ kind: TransportKind) async throws {
    let server = try LoopbackHTTPServer { request in
      request.target == "/old"
        ? .respond(status: 303, headers: ["Location": "/new"])
        : .respond(status: 200, body: "[]")
    }
    defer { server.stop() }
    let endpoint = Endpoint(baseURL: server.baseURL, path: "/old")
    #expect(try await provider(kind).send(endpoint).text == "[]")
    let second = try #require(server.requests.last)
    #expect(second.target == "/new")
    #expect(second.method == "GET")
  }

  /// A write answered by a redirect that would send it again as a GET (303; 301/302 after a
  /// POST, as browsers and curl do) is refused: the GET's answer, shown as the write's with exit
  /// 0, was a false green (an `http://` URL moved to `https://` answered an insert with the
  /// table's rows), and the write may never have been made.
  @Test(arguments: TransportKind.all)
  func aRedirectThatWouldTurnAWriteIntoAGetIsRefused(_ kind: TransportKind) async throws {
    let cases: [(Int, HTTPMethod)] = [
      (303, .post), (303, .patch), (303, .put), (303, .delete), (301, .post), (302, .post),
    ]
    for (status, method) in cases {
      let server = try LoopbackHTTPServer { request in
        request.target == "/rest/v1/t"
          ? .respond(status: status, headers: ["Location": "/moved/t"])
          : .respond(status: 200, body: "[{\"id\": 1}]")
      }
      defer { server.stop() }
      let endpoint = Endpoint(
        baseURL: server.baseURL, path: "/rest/v1/t", method: method,
        headers: ["Content-Type": "application/json"], body: Data("{}".utf8))
      await #expect(
        throws: SNMNetworkError.malformedResponse(
          url: endpoint.url,
          reason: "a \(status) redirect to \(server.baseURL)/moved/t answered a "
            + "\(method.rawValue), which would be sent again as a GET: the write may not have been "
            + "made (not followed; if the project moved, use the URL it names)")
      ) {
        try await provider(kind).send(endpoint)
      }
      #expect(server.requests.count == 1, "\(status) after \(method.rawValue): nothing sent again")
    }
  }

  @Test(arguments: TransportKind.all)
  func aRedirectLoopEnds(_ kind: TransportKind) async throws {
    let server = try LoopbackHTTPServer { _ in .respond(status: 302, headers: ["Location": "/t"]) }
    defer { server.stop() }
    let endpoint = Endpoint(baseURL: server.baseURL, path: "/t")
    await #expect(
      throws: SNMNetworkError.malformedResponse(
        url: endpoint.url, reason: "more than 5 redirects (the last to /t)")
    ) {
      try await provider(kind).send(endpoint)
    }
    #expect(server.requests.count == 6)
  }

  @Test(arguments: TransportKind.all)
  func aRedirectElsewhereThanHTTPIsRefused(_ kind: TransportKind) async throws {
    let server = try LoopbackHTTPServer { _ in
      .respond(status: 301, headers: ["Location": "file:///etc/passwd"])
    }
    defer { server.stop() }
    let endpoint = Endpoint(baseURL: server.baseURL, path: "/t")
    await #expect(
      throws: SNMNetworkError.malformedResponse(
        url: endpoint.url, reason: "a redirect to 'file:///etc/passwd', which is not an http(s) URL"
      )
    ) {
      try await provider(kind).send(endpoint)
    }
  }
}
