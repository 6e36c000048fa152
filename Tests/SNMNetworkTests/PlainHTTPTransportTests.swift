import Foundation
import SNMTestSupport
import SNMWire
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

  /// Fields as every transport returns them: repeats joined under the first spelling, sorted by
  /// lowercased name, whether there are few (scanned) or many (hashed).
  @Test(arguments: [3, 40])
  func mergedFieldsAreJoinedAndSortedByLowercasedName(extra: Int) {
    var fields: [HTTPHeaders.Field] = [
      .init(name: "Vary", value: "a"), .init(name: "content-type", value: "json"),
      .init(name: "VARY", value: "b"), .init(name: "Ünïcode", value: "u"),
    ]
    fields += (0..<extra).map { .init(name: "X-N\($0 % 10)", value: "\($0)") }
    let merged = HTTPHeaders.merging(fields).fields
    var expected: [String: (name: String, value: String)] = [:]
    var order: [String] = []
    for field in fields {
      let key = field.name.lowercased()
      if let seen = expected[key] {
        expected[key] = (seen.name, seen.value + ", " + field.value)
      } else {
        expected[key] = (field.name, field.value)
        order.append(key)
      }
    }
    let wanted = order.sorted().compactMap { key in
      expected[key].map { HTTPHeaders.Field(name: $0.name, value: $0.value) }
    }
    #expect(merged == wanted)
  }

  /// The answer `text` is read as, all of it arriving at once.
  func read(_ text: String, maximumBodyBytes: Int = 1 << 20) throws(PlainHTTPFailure)
    -> PlainHTTPAnswer
  {
    var reader = PlainHTTPReader(buffered: [], maximumBodyBytes: maximumBodyBytes)
    var sent = false
    return try reader.readAnswer(isHead: false) { () throws(PlainHTTPFailure) -> [UInt8] in
      defer { sent = true }
      return sent ? [] : Array(text.utf8)
    }
  }

  @Test(arguments: [
    "HTTP/1.1 200 OK\r\nContent-Type:\tapplication/json \t\r\nX-Empty:\r\nX-Odd: a:b \r\n\r\n",
    "HTTP/1.1 301 Moved\r\nLocation: /caf\u{E9}\r\nX: \u{A0}v\u{A0}\r\nConnection: close\r\n\r\n",
  ])
  func theHeadIsReadByTheSharedDecoder(head: String) throws {
    let answer = try read(head)
    #expect(answer.headers.count == 3)
    #expect(answer.body.isEmpty)
  }

  /// Field values lose the spaces and tabs around them (HTTP's optional whitespace, RFC 9110
  /// §5.6.3; other Unicode spaces are part of the value).
  @Test func fieldValuesLoseTheWhitespaceAroundThem() throws {
    let head =
      "HTTP/1.1 200 OK\r\nA:\t x y \t\r\nB: \u{A0}\u{BC34}\u{3000}\r\nconnection: CLOSE\r\n\r\n"
    let answer = try read(head)
    #expect(answer.headers.map(\.value) == ["x y", "\u{A0}\u{BC34}\u{3000}", "CLOSE"])
    #expect(!answer.keepAlive)
  }

  /// What the gateway refuses from a client the client refuses from a server (one codec): they
  /// were read as the first length, or as a chunk of 9 bytes.
  @Test(arguments: [
    (
      "HTTP/1.1 200 OK\r\nContent-Length: 2\r\nContent-Length: 7\r\n\r\n[]12345",
      "the answer is not valid HTTP (invalid Content-Length)"
    ),
    (
      "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n+9\r\n[1,2,3,4]\r\n0\r\n\r\n",
      "the answer is not valid HTTP (invalid chunk size)"
    ),
    (
      "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n-9\r\n[1,2,3,4]\r\n0\r\n\r\n",
      "the answer is not valid HTTP (invalid chunk size)"
    ),
    (
      "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nffffffffffffffffffff\r\n[]",
      "the answer is not valid HTTP (invalid chunk size: more than 16 hex digits)"
    ),
    (
      "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n8000000000000000\r\n[]",
      "the answer is not valid HTTP (invalid chunk size: more than 63 bits)"
    ),
    (
      "HTTP/1.0 200 OK\r\nA: \r x\r\n\r\n[]",
      "the answer is not valid HTTP (invalid character in header field value)"
    ),
  ])
  func framingTheGatewayRefusesIsRefused(answer: String, reason: String) {
    #expect(throws: PlainHTTPFailure.malformed(reason)) { try read(answer) }
  }

  /// Every size a server announces is checked before anything is set aside for it.
  @Test(arguments: [
    "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n7fffffffffffffff\r\n[]",
    "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n40000000000\r\n[]",
    "HTTP/1.1 200 OK\r\nContent-Length: 99999999999\r\n\r\n[]",
  ])
  func announcedSizesPastTheLimitAreRefused(answer: String) {
    #expect(throws: PlainHTTPFailure.tooLarge(1 << 20)) { try read(answer) }
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
