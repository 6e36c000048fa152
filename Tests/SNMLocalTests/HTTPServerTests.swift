import Foundation
import Testing

@testable import SNMGateway
@testable import SNMLocal

#if canImport(Glibc)
  import Glibc
#endif

/// A socket connected to 127.0.0.1:`port` whose reads time out after `timeout` seconds, or -1.
func loopbackSocket(port: Int, timeout: Int = 5) -> Int32 {
  LoopbackSocket.connect(port: port, readTimeout: timeout) ?? -1
}

/// Sends raw bytes to 127.0.0.1:`port` and reads until the server closes.
func rawExchange(port: Int, _ text: String) -> String {
  let fd = loopbackSocket(port: port)
  guard fd >= 0 else { return "" }
  defer { close(fd) }
  _ = text.withCString { send(fd, $0, strlen($0), 0) }
  return received(fd)
}

/// What arrives on `fd` until the server closes, a read times out, or `marker` has arrived.
func received(_ fd: Int32, until marker: String? = nil) -> String {
  var output: [UInt8] = []
  var buffer = [UInt8](repeating: 0, count: 4096)
  while true {
    let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, 4096, 0) }
    if count <= 0 { break }
    output += buffer[0..<count]
    if let marker, String(decoding: output, as: UTF8.self).contains(marker) { break }
  }
  return String(decoding: output, as: UTF8.self)
}

@Test func serverAnswersKeepAliveRequestsInOrderAndRefusesGarbage() throws {
  let server = HTTPServer(port: 0) { request in
    .json(
      status: 200,
      .object([.init("path", .string(request.path)), .init("body", .int(request.body.count))]))
  }
  try server.start()
  defer { server.stop() }
  #expect(server.port > 0)
  let answer = rawExchange(
    port: server.port,
    "GET /a HTTP/1.1\r\nHost: x\r\n\r\nPOST /b HTTP/1.1\r\nContent-Length: 3\r\n\r\nabc"
      + "HEAD /c HTTP/1.1\r\nConnection: close\r\n\r\n")
  #expect(answer.components(separatedBy: "HTTP/1.1 200 OK").count == 4)
  #expect(answer.contains(#"{"path":"/a","body":0}"#))
  #expect(answer.contains(#"{"path":"/b","body":3}"#))
  #expect(!answer.contains(#""path":"/c""#), "HEAD has no body")
  #expect(answer.contains("Connection: close"))
  let refused = rawExchange(port: server.port, "NOT HTTP\r\n\r\n")
  #expect(refused.hasPrefix("HTTP/1.1 400 Bad Request"))
  #expect(refused.contains("malformed request line"))
}

@Test func secondServerOnTheSamePortFailsClearly() throws {
  let first = HTTPServer(port: 0) { _ in HTTPResponse(status: 204) }
  try first.start()
  defer { first.stop() }
  let second = HTTPServer(port: first.port) { _ in HTTPResponse(status: 204) }
  #expect(throws: HTTPServerError.self) { try second.start() }
  do {
    try second.start()
  } catch {
    #expect(error.description == "port \(first.port) is already in use on 127.0.0.1")
  }
}

/// A client that trickles a header line more often than the server's read slice (slowloris) still
/// gets 408 once the request timeout has passed, and the connection is closed.
@Test func aTrickledRequestIsCutOffAtTheRequestTimeout() throws {
  var limits = HTTPServerLimits()
  limits.requestTimeout = 1
  let server = HTTPServer(port: 0, limits: limits) { _ in .json(status: 200, "{}") }
  try server.start()
  defer { server.stop() }
  let fd = loopbackSocket(port: server.port)
  try #require(fd >= 0)
  defer { close(fd) }
  var wait = timeval(tv_sec: 0, tv_usec: 200_000)
  setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &wait, socklen_t(MemoryLayout<timeval>.size))
  let started = monotonicSeconds()
  var answer: [UInt8] = []
  var buffer = [UInt8](repeating: 0, count: 4096)
  _ = "GET / HTTP/1.1\r\n".withCString { send(fd, $0, strlen($0), Int32(MSG_NOSIGNAL)) }
  while monotonicSeconds() - started < 6 {
    _ = "X-Slow: 1\r\n".withCString { send(fd, $0, strlen($0), Int32(MSG_NOSIGNAL)) }
    let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, 4096, 0) }
    if count == 0 || (count < 0 && errno != EAGAIN && errno != EWOULDBLOCK) { break }
    if count > 0 { answer += buffer[0..<count] }
  }
  #expect(String(decoding: answer, as: UTF8.self).hasPrefix("HTTP/1.1 408 Request Timeout"))
  #expect(monotonicSeconds() - started < 4, "cut off near the 1 s timeout, not never")
}

/// Stopping the server ends its workers: the idle ones at once, the busy ones after their
/// connection (they used to stay parked on the semaphore for the life of the process).
@Test func stoppingEndsTheWorkers() throws {
  let server = HTTPServer(port: 0) { _ in HTTPResponse(status: 204) }
  try server.start()
  for _ in 0..<3 {
    _ = rawExchange(port: server.port, "GET / HTTP/1.1\r\nConnection: close\r\n\r\n")
  }
  #expect(server.workerCount >= 1)
  server.stop()
  let deadline = monotonicSeconds() + 30
  while server.workerCount > 0 && monotonicSeconds() < deadline { usleep(10_000) }
  #expect(server.workerCount == 0)
}
