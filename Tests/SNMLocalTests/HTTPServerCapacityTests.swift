import Foundation
import Testing

@testable import SNMLocal

#if canImport(Glibc)
  import Glibc
#endif

/// At capacity the server closes the connection idle the longest to serve a new one; a request
/// under way is never the one closed; worker threads left waiting end.
@Suite struct HTTPServerCapacityTests {
  /// A connected socket to 127.0.0.1:`port` (reads time out after 5 s).
  static func connectTo(_ port: Int) throws -> Int32 {
    let fd = loopbackSocket(port: port)
    try #require(fd >= 0)
    return fd
  }

  static func send(_ fd: Int32, _ text: String) {
    _ = text.withCString { Glibc.send(fd, $0, strlen($0), Int32(MSG_NOSIGNAL)) }
  }

  /// What the server sends before it closes, 5 s pass, or a whole `{}` answer arrived.
  static func received(_ fd: Int32) -> String {
    SNMLocalTests.received(fd, until: "\r\n\r\n{}")
  }

  func server(capacity: Int, workerIdle: Double = 30) throws -> HTTPServer {
    var limits = HTTPServerLimits()
    limits.maxConnections = capacity
    limits.workerIdleTimeout = workerIdle
    limits.minimumWorkers = 1
    let server = HTTPServer(port: 0, limits: limits) { _ in .json(status: 200, "{}") }
    try server.start()
    return server
  }

  @Test func theLongestIdleConnectionMakesRoom() throws {
    let server = try server(capacity: 3)
    defer { server.stop() }
    var idle: [Int32] = []
    for _ in 0..<3 {
      idle.append(try Self.connectTo(server.port))
      usleep(50_000)
    }
    defer { for fd in idle { close(fd) } }
    let newcomer = try Self.connectTo(server.port)
    defer { close(newcomer) }
    Self.send(newcomer, "GET / HTTP/1.1\r\nHost: x\r\n\r\n")
    #expect(Self.received(newcomer).hasPrefix("HTTP/1.1 200 OK"))
    #expect(Self.received(idle[0]) == "", "the oldest idle connection was closed")
    Self.send(idle[2], "GET / HTTP/1.1\r\nHost: x\r\n\r\n")
    #expect(Self.received(idle[2]).hasPrefix("HTTP/1.1 200 OK"), "the newer ones stay open")
  }

  @Test func aRequestUnderWayIsNotClosedAndAFullServerSays503() throws {
    let server = try server(capacity: 2)
    defer { server.stop() }
    let arriving = try Self.connectTo(server.port)
    defer { close(arriving) }
    Self.send(arriving, "GET / HTTP/1.1\r\n")
    let idle = try Self.connectTo(server.port)
    defer { close(idle) }
    usleep(100_000)
    let newcomer = try Self.connectTo(server.port)
    defer { close(newcomer) }
    Self.send(newcomer, "GET / HTTP/1.1\r\nHost: x\r\n\r\n")
    #expect(Self.received(newcomer).hasPrefix("HTTP/1.1 200 OK"))
    #expect(Self.received(idle) == "", "the idle one made room")
    Self.send(arriving, "Host: x\r\n\r\n")
    #expect(Self.received(arriving).hasPrefix("HTTP/1.1 200 OK"), "the arriving one did not")
    // Both connections busy (each with half a request): nothing idle to close, so 503.
    let second = try Self.connectTo(server.port)
    defer { close(second) }
    Self.send(arriving, "GET / HTTP/1.1\r\n")
    Self.send(second, "GET / HTTP/1.1\r\n")
    usleep(100_000)
    let refused = try Self.connectTo(server.port)
    defer { close(refused) }
    #expect(Self.received(refused).hasPrefix("HTTP/1.1 503 Service Unavailable"))
  }

  @Test func idleWorkersEnd() throws {
    let server = try server(capacity: 16, workerIdle: 0.2)
    defer { server.stop() }
    var sockets: [Int32] = []
    for _ in 0..<6 { sockets.append(try Self.connectTo(server.port)) }
    for fd in sockets { Self.send(fd, "GET / HTTP/1.1\r\nHost: x\r\n\r\n") }
    for fd in sockets { #expect(Self.received(fd).hasPrefix("HTTP/1.1 200 OK")) }
    #expect(server.state.withLock { $0.workers } == 6)
    for fd in sockets { close(fd) }
    let deadline = monotonicSeconds() + 5
    while server.state.withLock({ $0.workers }) > 1 && monotonicSeconds() < deadline {
      usleep(50_000)
    }
    #expect(server.state.withLock { $0.workers } == 1, "one kept, the others ended")
    let later = try Self.connectTo(server.port)
    defer { close(later) }
    Self.send(later, "GET / HTTP/1.1\r\nHost: x\r\n\r\n")
    #expect(Self.received(later).hasPrefix("HTTP/1.1 200 OK"))
  }
}
