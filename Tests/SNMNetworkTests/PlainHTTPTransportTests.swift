import Foundation
import SNMTestSupport
import Synchronization
import Testing

@testable import SNMNetwork

/// The plain-socket path `http://` URLs take: framings, header merging, a kept connection the
/// server closed, the request target as written.
@Suite(.timeLimit(.minutes(1))) struct PlainHTTPTransportTests {
  func provider() -> SNMNetworkProvider {
    SNMNetworkProvider(configuration: .init(apiKey: "k", timeout: 10))
  }

  @Test func aTruncatedBodyIsMalformed() async throws {
    let server = try LoopbackHTTPServer { _ in
      .garbage("HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\n[1,")
    }
    defer { server.stop() }
    let url = server.baseURL + "/t"
    await #expect(
      throws: SNMNetworkError.malformedResponse(
        url: url, reason: "the answer was cut off (transfer closed with 7 bytes remaining to read)")
    ) {
      try await provider().send(Endpoint(baseURL: server.baseURL, path: "/t"))
    }
  }

  @Test(arguments: [
    ("http://127.0.0.1:54321/rest/v1/t?id=eq.1&name=eq.%20x", "/rest/v1/t?id=eq.1&name=eq.%20x"),
    ("http://127.0.0.1:54321", "/"),
    ("http://127.0.0.1:54321?a=1", "/?a=1"),
    ("http://[::1]:80/p#frag", "/p"),
  ])
  func theRequestTargetIsTheURLAsWritten(url: String, target: String) {
    #expect(PlainHTTPTransport.requestTarget(url) == target)
  }

  @Test(arguments: [
    "http://127.0.0.1:54321/rest/v1/t?id=eq.1", "http://h:1/a://b?c=d://e", "h/x", "?x", "",
    "http://h", "http://h#f/x", "http://h/p?q#f", "mailto:x", "http://h/caf\u{E9}?q=\u{1F436}",
  ])
  func theRequestTargetIsCutTheSameOnBytesAsOnText(url: String) {
    #expect(PlainHTTPTransport.requestTarget(url) == PlainHTTPTransport.requestTargetAsText(url))
  }

  @Test(arguments: [
    "HTTP/1.1 200 OK\r\nContent-Type:\tapplication/json \t\r\nX-Empty:\r\nX-Odd: a:b \r\n",
    "HTTP/1.1 204 No Content\r\n\r\nLate: field",
    "HTTP/1.0 200 OK\r\nConnection: Keep-Alive\r\nA: \r x\r\n",
    "HTTP/1.1 301 Moved\r\nLocation: /caf\u{E9}\r\nX: \u{A0}v\u{A0}\r\nConnection: close",
  ])
  func theHeadReadsTheSameOnBytesAsOnText(head: String) throws {
    let bytes = ArraySlice(Array(head.utf8))
    let fast = try PlainHTTPReader.parseHead(bytes)
    let text = try PlainHTTPReader.parseHeadAsText(bytes)
    #expect(fast.status == text.status)
    #expect(fast.headers == text.headers)
    #expect(fast.keepAlive == text.keepAlive)
  }

  @Test func fieldValuesLoseTheWhitespaceAroundThem() throws {
    let head = "HTTP/1.1 200 OK\r\nA:\t x y \t\r\nB: \u{A0}\u{BC34}\u{3000}\r\nconnection: CLOSE"
    let answer = try PlainHTTPReader.parseHead(ArraySlice(Array(head.utf8)))
    #expect(answer.headers.map(\.value) == ["x y", "\u{BC34}", "CLOSE"])
    #expect(!answer.keepAlive)
  }

  @Test func theRequestCarriesHostAndContentLength() {
    let request = PlainHTTPClient.Request(
      method: "POST", host: "::1", port: 54321, target: "/t",
      fields: [.init(name: "Prefer", value: "return=minimal")], body: Data("{}".utf8),
      timeout: 1)
    #expect(
      String(decoding: request.encoded(), as: UTF8.self)
        == "POST /t HTTP/1.1\r\nHost: [::1]:54321\r\nPrefer: return=minimal\r\n"
        + "Content-Length: 2\r\n\r\n{}")
  }
}
