import SNMWire
import Testing

@testable import SNMGateway
@testable import SNMLocal

func read(_ text: String, limits: HTTPLimits = .requests, pieces: Int = 1)
  -> [HTTPRequestReader.Step]
{
  var reader = HTTPRequestReader(limits: limits)
  let bytes = Array(text.utf8)
  var steps: [HTTPRequestReader.Step] = []
  let size = max(1, bytes.count / pieces)
  var offset = 0
  while offset < bytes.count {
    let end = min(bytes.count, offset + size)
    bytes[offset..<end].withUnsafeBufferPointer { reader.append($0) }
    offset = end
    while true {
      let step = reader.next()
      if step == .needMore { break }
      steps.append(step)
      if case .failure = step { return steps }
    }
  }
  return steps
}

@Test func readsAGetWithQueryAndHeaders() throws {
  let steps = read("GET /rest/v1/t?select=a,b&x=eq.1 HTTP/1.1\r\nHost: h\r\nApiKey: k\r\n\r\n")
  guard case .request(let request, let keepAlive) = try #require(steps.first) else {
    Issue.record("expected a request, got \(steps)")
    return
  }
  #expect(request.method == "GET")
  #expect(request.path == "/rest/v1/t")
  #expect(request.query == "select=a,b&x=eq.1")
  #expect(request.headers["apikey"] == "k")
  #expect(keepAlive)
}

@Test func readsPipelinedRequestsByteByByte() {
  let text =
    "POST /a HTTP/1.1\r\nContent-Length: 5\r\n\r\nhello"
    + "POST /b HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n3;ext=1\r\nabc\r\n2\r\nde\r\n0\r\nX-T: 1\r\n\r\n"
    + "GET /c HTTP/1.0\r\n\r\n"
  let steps = read(text, pieces: text.utf8.count)
  let requests = steps.compactMap { step -> (HTTPRequest, Bool)? in
    if case .request(let request, let keepAlive) = step { return (request, keepAlive) }
    return nil
  }
  #expect(requests.map(\.0.path) == ["/a", "/b", "/c"])
  #expect(requests.map { String(decoding: $0.0.body, as: UTF8.self) } == ["hello", "abcde", ""])
  #expect(requests.map(\.1) == [true, true, false])
}

struct RefusalCase: Sendable, CustomStringConvertible {
  var name: String
  var text: String
  var status: Int
  var description: String { name }
}

@Test(arguments: [
  RefusalCase(name: "garbage request line", text: "HELLO\r\n\r\n", status: 400),
  RefusalCase(name: "space in target", text: "GET /a b HTTP/1.1\r\n\r\n", status: 400),
  RefusalCase(name: "bad version", text: "GET / HTTP/x.y\r\n\r\n", status: 400),
  RefusalCase(name: "http 2", text: "GET / HTTP/2.0\r\n\r\n", status: 505),
  RefusalCase(name: "no colon", text: "GET / HTTP/1.1\r\nBroken\r\n\r\n", status: 400),
  RefusalCase(name: "space before colon", text: "GET / HTTP/1.1\r\nA : b\r\n\r\n", status: 400),
  RefusalCase(name: "folded header", text: "GET / HTTP/1.1\r\nA: b\r\n c\r\n\r\n", status: 400),
  RefusalCase(
    name: "bad content length", text: "POST / HTTP/1.1\r\nContent-Length: 1x\r\n\r\n", status: 400),
  RefusalCase(
    name: "two lengths", text: "POST / HTTP/1.1\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n",
    status: 400),
  RefusalCase(
    name: "length and chunked",
    text: "POST / HTTP/1.1\r\nContent-Length: 1\r\nTransfer-Encoding: chunked\r\n\r\n", status: 400),
  RefusalCase(
    name: "gzip coding", text: "POST / HTTP/1.1\r\nTransfer-Encoding: gzip\r\n\r\n", status: 501),
  RefusalCase(
    name: "bad chunk size", text: "POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n",
    status: 400),
  RefusalCase(
    name: "negative chunk size (crashed the gateway)",
    text: "POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n-5\r\n{\"a\":\r\n0\r\n\r\n",
    status: 400),
  RefusalCase(
    name: "signed chunk size",
    text: "POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n+3\r\nabc\r\n0\r\n\r\n",
    status: 400),
  RefusalCase(
    name: "chunk overrun",
    text: "POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n1\r\nabc\r\n", status: 400),
  RefusalCase(
    name: "huge body", text: "POST / HTTP/1.1\r\nContent-Length: 99999999999\r\n\r\n", status: 413),
  RefusalCase(
    name: "huge header",
    text: "GET / HTTP/1.1\r\nX: " + String(repeating: "a", count: 70_000) + "\r\n\r\n", status: 431),
  RefusalCase(
    name: "huge target", text: "GET /" + String(repeating: "a", count: 20_000), status: 414),
  RefusalCase(
    name: "many headers",
    text: "GET / HTTP/1.1\r\n" + String(repeating: "A: b\r\n", count: 150) + "\r\n", status: 431),
])
func refusesMalformedRequests(_ example: RefusalCase) {
  let steps = read(example.text)
  guard case .failure(let failure) = steps.last else {
    Issue.record("expected a refusal, got \(steps)")
    return
  }
  #expect(failure.status == example.status)
  #expect(!failure.message.isEmpty)
}

@Test func chunkedBodyOverLimitIs413() {
  var limits = HTTPLimits.requests
  limits.maxBodyBytes = 4
  let steps = read(
    "POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n3\r\ndef\r\n0\r\n\r\n",
    limits: limits)
  guard case .failure(let failure) = steps.last else {
    Issue.record("expected a refusal")
    return
  }
  #expect(failure.status == 413)
}

@Test func absoluteFormTargetBecomesOriginForm() {
  let steps = read("GET http://127.0.0.1:1/rest/v1/t?a=1 HTTP/1.1\r\n\r\n")
  guard case .request(let request, _) = steps.first else {
    Issue.record("expected a request")
    return
  }
  #expect(request.target == "/rest/v1/t?a=1")
}

@Test func queryValueDecodesPercentAndPlus() {
  let request = HTTPRequest(method: "GET", target: "/x?grant_type=refresh_token&q=a%20b+c%ZZ")
  #expect(request.queryValue("grant_type") == "refresh_token")
  #expect(request.queryValue("q") == "a b c%ZZ")
  #expect(request.queryValue("nope") == nil)
}

@Test(arguments: ["4\r\nabcdXY\r\n0\r\n\r\n", "4\r\nabcd\rX\r\n0\r\n\r\n", "4\r\nabcdX\n0\r\n\r\n"])
func chunkDataLongerThanItsSizeIsOneRefusalHoweverItArrives(chunks: String) {
  let text = "POST /a HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n" + chunks
  let expected = [HTTPRequestReader.Step.failure(.bad("chunk data longer than its size"))]
  #expect(read(text) == expected)
  #expect(read(text, pieces: text.utf8.count) == expected)
  #expect(read(text, pieces: 2) == expected)
}
