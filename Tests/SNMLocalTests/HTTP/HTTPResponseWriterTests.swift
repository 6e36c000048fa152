import Foundation
import SNMWire
import Synchronization
import Testing

@testable import SNMGateway

/// What `HTTPResponseWriter` puts on the wire for a handler's response: the server's own
/// framing fields replace the handler's, a body-less answer announces its length and sends no
/// body, a streamed one is chunked.
@Suite struct HTTPResponseWriterTests {
  /// The head's lines and the bytes after it.
  static func split(_ bytes: [UInt8]) -> (lines: [String], body: [UInt8]) {
    let text = Array(bytes)
    guard let end = text.indices.first(where: { Array(text[$0...].prefix(4)) == [13, 10, 13, 10] })
    else { return ([], []) }
    let head = String(decoding: text[..<end], as: UTF8.self)
    return (head.components(separatedBy: "\r\n"), Array(text[(end + 4)...]))
  }

  @Test func aResponseGetsTheServersFramingFieldsNotTheHandlers() throws {
    var headers = HTTPHeaders()
    headers["X-Kept"] = "yes"
    headers["Content-Length"] = "999"
    headers["connection"] = "keep-alive"
    headers["Transfer-Encoding"] = "gzip"
    let response = HTTPResponse.json(status: 201, #"{"id":1}"#, headers: headers)
    let (lines, body) = Self.split(
      HTTPResponseWriter.serialize(response, keepAlive: false, bodyless: false))
    #expect(lines.first == "HTTP/1.1 201 Created")
    #expect(lines.contains("X-Kept: yes"))
    #expect(lines.contains("Content-Type: application/json; charset=utf-8"))
    #expect(lines.filter { $0.lowercased().hasPrefix("content-length:") } == ["Content-Length: 8"])
    #expect(lines.filter { $0.lowercased().hasPrefix("connection:") } == ["Connection: close"])
    #expect(!lines.contains { $0.lowercased().hasPrefix("transfer-encoding:") })
    let date = try #require(lines.first { $0.hasPrefix("Date: ") })
    #expect(HTTPDate.parse(String(date.dropFirst(6))) != nil, "an IMF-fixdate")
    #expect(body == Array(#"{"id":1}"#.utf8))

    let kept = Self.split(HTTPResponseWriter.serialize(response, keepAlive: true, bodyless: false))
    #expect(!kept.lines.contains { $0.lowercased().hasPrefix("connection:") })
  }

  @Test func aHeadAnswerAnnouncesTheLengthAndSendsNoBody() {
    let response = HTTPResponse.json(status: 200, "[1,2,3]")
    let (lines, body) = Self.split(
      HTTPResponseWriter.serialize(response, keepAlive: true, bodyless: true))
    #expect(lines.contains("Content-Length: 7"))
    #expect(body.isEmpty)
  }

  @Test func noContentHasNeitherLengthNorBody() {
    let response = HTTPResponse(status: 204, body: Array("ignored".utf8))
    let (lines, body) = Self.split(
      HTTPResponseWriter.serialize(response, keepAlive: true, bodyless: false))
    #expect(lines.first == "HTTP/1.1 204 No Content")
    #expect(!lines.contains { $0.lowercased().hasPrefix("content-length:") })
    #expect(body.isEmpty)
    let notModified = Self.split(
      HTTPResponseWriter.serialize(
        HTTPResponse(status: 304, body: Array("ignored".utf8)), keepAlive: true, bodyless: false))
    #expect(notModified.body.isEmpty, "a 304 sends no body")
  }

  @Test func aStreamedBodyIsChunkedItsFirstPartAChunk() {
    var response = HTTPResponse(status: 200, body: Array("[".utf8))
    response.bodyStream = HTTPStreamedBody(produce: { _ in true }, abandon: {})
    let (lines, body) = Self.split(
      HTTPResponseWriter.serialize(response, keepAlive: true, bodyless: false))
    #expect(lines.contains("Transfer-Encoding: chunked"))
    #expect(!lines.contains { $0.lowercased().hasPrefix("content-length:") })
    #expect(body == Array("1\r\n[\r\n".utf8))
    let head = Self.split(HTTPResponseWriter.serialize(response, keepAlive: true, bodyless: true))
    #expect(!head.lines.contains { $0.lowercased().hasPrefix("transfer-encoding:") })
    #expect(head.body.isEmpty)
  }

  @Test func aChunkIsItsHexSizeAndItsBytes() {
    let bytes = [UInt8](repeating: 0x61, count: 26)
    let framed = bytes.withUnsafeBytes { HTTPResponseWriter.chunk($0) }
    #expect(framed == Array("1a\r\n".utf8) + bytes + [13, 10])
    #expect(HTTPResponseWriter.lastChunk == Array("0\r\n\r\n".utf8))
  }

  @Test func aFileBodyAnnouncesTheFilesLength() {
    var response = HTTPResponse(status: 200)
    response.bodyFile = HTTPFileBody(fd: nil, offset: 0, length: 123_456)
    let (lines, body) = Self.split(
      HTTPResponseWriter.serialize(response, keepAlive: true, bodyless: true))
    #expect(lines.contains("Content-Length: 123456"))
    #expect(body.isEmpty)
  }

  @Test func aRefusedRequestIsAnswerInTheGatewaysErrorShape() throws {
    let response = HTTPResponseWriter.failure(HTTPParseError(status: 431, message: "too large"))
    #expect(response.status == 431)
    let value = try JSONValue(parsing: response.body)
    #expect(value == ["code": "HTTP431", "message": "too large"])
  }
}

/// A response body's resources are given back exactly once, whatever happens to the response.
@Suite struct HTTPBodyResourcesTests {
  final class Calls: Sendable {
    let produced = Mutex(0)
    let abandoned = Mutex(0)
  }

  @Test func aStreamedBodyProducesOnceAndIsNeverAlsoAbandoned() {
    let calls = Calls()
    let body = HTTPStreamedBody(
      produce: { write in
        calls.produced.withLock { $0 += 1 }
        return Array("abc".utf8).withUnsafeBytes(write)
      }, abandon: { calls.abandoned.withLock { $0 += 1 } })
    var written: [UInt8] = []
    #expect(
      body.produce {
        written.append(contentsOf: $0); return true
      })
    #expect(written == Array("abc".utf8))
    #expect(!body.produce { _ in true }, "a second send produces nothing")
    body.abandon()
    #expect(calls.produced.withLock { $0 } == 1)
    #expect(calls.abandoned.withLock { $0 } == 0, "a produced body is not abandoned")
  }

  @Test func aBodyNeverSentIsAbandonedOnceWhenDropped() {
    let calls = Calls()
    do {
      let body = HTTPStreamedBody(
        produce: { _ in true }, abandon: { calls.abandoned.withLock { $0 += 1 } })
      body.abandon()
      body.abandon()
    }
    #expect(calls.abandoned.withLock { $0 } == 1, "abandoned once, not again when released")
    do {
      var response = HTTPResponse(status: 200)
      response.bodyStream = HTTPStreamedBody(
        produce: { _ in true }, abandon: { calls.abandoned.withLock { $0 += 1 } })
    }
    #expect(calls.abandoned.withLock { $0 } == 2, "a dropped response gives its body back")
    #expect(calls.produced.withLock { $0 } == 0)
  }

  @Test func aFileBodyClosesItsFileWhenReleased() throws {
    let fd = open("/dev/null", O_RDONLY)
    try #require(fd >= 0)
    do {
      let file = HTTPFileBody(fd: fd, offset: 0, length: 0)
      #expect(fcntl(file.fd ?? -1, F_GETFD) != -1, "open while held")
    }
    #expect(fcntl(fd, F_GETFD) == -1 && errno == EBADF, "closed with the body")
  }
}
