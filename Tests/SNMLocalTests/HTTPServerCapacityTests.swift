import Foundation
import Synchronization
import Testing

@testable import SNMGateway
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

  /// Everything `fd` receives until the server closes, a read times out (5 s), or `enough` holds
  /// for what arrived so far.
  static func receivedBytes(_ fd: Int32, until enough: ([UInt8]) -> Bool = { _ in false })
    -> [UInt8]
  {
    var received: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 65_536)
    while !enough(received) {
      let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
      guard count > 0 else { break }
      received += buffer[0..<count]
    }
    return received
  }

  /// `bytes` as a streamed answer, written 64 KiB at a time (as a database's rows are).
  static func streamed(_ bytes: [UInt8]) -> HTTPStreamedBody {
    HTTPStreamedBody(
      produce: { write in
        stride(from: 0, to: bytes.count, by: 65_536).allSatisfy { start in
          bytes[start..<min(bytes.count, start + 65_536)].withUnsafeBytes(write)
        }
      }, abandon: {})
  }

  /// A client that sends `request` and reads nothing yet, then another asking for `/small`,
  /// which is answered while the first waits. Returns the first client's socket.
  static func slowReaderThenAnother(_ server: HTTPServer, sending request: String) throws
    -> Int32
  {
    let slow = try connectTo(server.port)
    send(slow, request)
    let other = try connectTo(server.port)
    defer { close(other) }
    send(other, "GET /small HTTP/1.1\r\nHost: x\r\n\r\n")
    #expect(received(other).hasPrefix("HTTP/1.1 200 OK"), "answered while the first waits")
    return slow
  }

  /// Waits (up to 30 s) until `count` open connections wait for a request, and `busy` others
  /// read or answer one: a client reads its answer before the connection is idle again.
  static func waitUntil(_ server: HTTPServer, idle count: Int, busy: Int = 0) {
    let deadline = monotonicSeconds() + 30
    while monotonicSeconds() < deadline {
      let (idle, working) = server.loop.withLock { loop in
        let open = loop.connections.values.filter { $0.lingerUntil == nil }
        return (open.count { $0.idleSince != nil }, open.count { $0.idleSince == nil })
      }
      if idle == count && working == busy { return }
      usleep(10_000)
    }
  }

  /// Waits (up to 30 s) until `count` connections' answers are with the event loop and their
  /// clients have taken nothing of them for `age` seconds: stalled as `makeRoom` sees them.
  static func waitUntilAnswersStall(_ server: HTTPServer, count: Int, age: Double) {
    let deadline = monotonicSeconds() + 30
    while monotonicSeconds() < deadline {
      let stalled = server.loop.withLock { loop in
        let now = monotonicSeconds()
        return loop.connections.values.count { $0.sendingSince.map { now - $0 >= age } ?? false }
      }
      if stalled == count { return }
      usleep(10_000)
    }
  }

  func server(
    capacity: Int, workerIdle: Double = 30,
    handler: @escaping HTTPServer.Handler = { _ in .json(status: 200, "{}") }
  ) throws -> HTTPServer {
    var limits = HTTPServerLimits()
    limits.maxConnections = capacity
    limits.workerIdleTimeout = workerIdle
    limits.minimumWorkers = 1
    let server = HTTPServer(port: 0, limits: limits, handler: handler)
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
    Self.waitUntil(server, idle: 1, busy: 1)  // the newcomer idle before the arriving one
    #expect(Self.received(idle) == "", "the idle one made room")
    Self.send(arriving, "Host: x\r\n\r\n")
    #expect(Self.received(arriving).hasPrefix("HTTP/1.1 200 OK"), "the arriving one did not")
    // A second newcomer takes the place of the first (idle the longest); then both connections
    // are busy (each with half a request): nothing idle to close, so 503.
    Self.waitUntil(server, idle: 2)
    let second = try Self.connectTo(server.port)
    defer { close(second) }
    Self.send(arriving, "GET / HTTP/1.1\r\n")
    Self.send(second, "GET / HTTP/1.1\r\n")
    Self.waitUntil(server, idle: 0, busy: 2)
    let refused = try Self.connectTo(server.port)
    defer { close(refused) }
    #expect(Self.received(refused).hasPrefix("HTTP/1.1 503 Service Unavailable"))
  }

  /// Half-sent heads cannot shut everyone out: at capacity, with every connection trickling a
  /// head, a newcomer is refused only until a head has been arriving `slowHeadAge` seconds; then
  /// the one arriving the longest gets 408 and closes to make room, and the newer one stays.
  @Test func aHeadTricklingForLongMakesRoom() throws {
    var limits = HTTPServerLimits()
    limits.maxConnections = 2
    limits.minimumWorkers = 1
    limits.slowHeadAge = 0.3
    let server = HTTPServer(port: 0, limits: limits) { _ in .json(status: 200, "{}") }
    try server.start()
    defer { server.stop() }
    let first = try Self.connectTo(server.port)
    defer { close(first) }
    Self.send(first, "GET / HTTP/1.1\r\n")
    Self.waitUntil(server, idle: 0, busy: 1)
    let second = try Self.connectTo(server.port)
    defer { close(second) }
    Self.send(second, "GET / HTTP/1.1\r\n")
    Self.waitUntil(server, idle: 0, busy: 2)
    var answer = ""
    let deadline = monotonicSeconds() + 30
    while monotonicSeconds() < deadline {
      let newcomer = try Self.connectTo(server.port)
      Self.send(newcomer, "GET / HTTP/1.1\r\nHost: x\r\n\r\n")
      answer = Self.received(newcomer)
      close(newcomer)
      if !answer.hasPrefix("HTTP/1.1 503") { break }
      usleep(20_000)
    }
    #expect(answer.hasPrefix("HTTP/1.1 200 OK"), "served once a head trickled for long")
    #expect(Self.received(first).hasPrefix("HTTP/1.1 408"), "the oldest head was dropped")
    Self.send(second, "Host: x\r\n\r\n")
    #expect(Self.received(second).hasPrefix("HTTP/1.1 200 OK"), "the newer head was kept")
  }

  /// A newcomer at capacity, retried until it is not refused (at most 30 s): the answer it got.
  static func newcomerAnswer(_ server: HTTPServer) throws -> String {
    var answer = ""
    let deadline = monotonicSeconds() + 30
    while monotonicSeconds() < deadline {
      let newcomer = try Self.connectTo(server.port)
      Self.send(newcomer, "GET / HTTP/1.1\r\nHost: x\r\n\r\n")
      answer = Self.received(newcomer)
      close(newcomer)
      if !answer.hasPrefix("HTTP/1.1 503") { break }
      usleep(20_000)
    }
    return answer
  }

  /// Bodies that stall cannot shut everyone out: at capacity, with every connection holding a
  /// head whose body does not come, a newcomer is refused only until one has been below
  /// `minimumBodyRate` for `slowHeadAge` seconds; then the oldest gets 408 and closes to make
  /// room (it used to be refused with 503 until the request timeout, 30 s).
  @Test func aStalledBodyMakesRoom() throws {
    var limits = HTTPServerLimits()
    limits.maxConnections = 2
    limits.minimumWorkers = 1
    limits.slowHeadAge = 0.3
    let server = HTTPServer(port: 0, limits: limits) { _ in .json(status: 200, "{}") }
    try server.start()
    defer { server.stop() }
    let post = "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\nab"
    let first = try Self.connectTo(server.port)
    defer { close(first) }
    Self.send(first, post)
    Self.waitUntil(server, idle: 0, busy: 1)
    let second = try Self.connectTo(server.port)
    defer { close(second) }
    Self.send(second, post)
    Self.waitUntil(server, idle: 0, busy: 2)
    #expect(try Self.newcomerAnswer(server).hasPrefix("HTTP/1.1 200 OK"), "served")
    #expect(Self.received(first).hasPrefix("HTTP/1.1 408"), "the oldest stalled body was dropped")
  }

  /// Clients that do not read their answers cannot shut everyone out: at capacity, with every
  /// connection's answer left unread, a newcomer is served once one has taken nothing for
  /// `slowHeadAge` seconds; that answer is cut (the connection closes), the other is kept whole.
  @Test func aClientNotReadingItsAnswerMakesRoom() throws {
    let size = 8 << 20
    let body = [UInt8](repeating: UInt8(ascii: "x"), count: size)
    var limits = HTTPServerLimits()
    limits.maxConnections = 2
    limits.minimumWorkers = 1
    limits.slowHeadAge = 0.3
    let server = HTTPServer(port: 0, limits: limits) { request in
      request.path == "/big" ? HTTPResponse(status: 200, body: body) : .json(status: 200, "{}")
    }
    try server.start()
    defer { server.stop() }
    let first = try Self.connectTo(server.port)
    defer { close(first) }
    Self.send(first, "GET /big HTTP/1.1\r\nHost: x\r\n\r\n")
    Self.waitUntil(server, idle: 0, busy: 1)
    // The first answer stalls before the second is asked for, so the first is the one left
    // unread the longest (on a loaded machine the first worker's writes can end after the
    // second's: the test then cut the second).
    Self.waitUntilAnswersStall(server, count: 1, age: limits.slowHeadAge)
    let second = try Self.connectTo(server.port)
    defer { close(second) }
    Self.send(second, "GET /big HTTP/1.1\r\nHost: x\r\n\r\n")
    Self.waitUntil(server, idle: 0, busy: 2)
    #expect(try Self.newcomerAnswer(server).hasPrefix("HTTP/1.1 200 OK"), "served")
    func all(_ fd: Int32) -> Int {
      var total = 0
      var buffer = [UInt8](repeating: 0, count: 65_536)
      while true {
        let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        guard count > 0 else { return total }
        total += count
        if total > size { return total }
      }
    }
    #expect(all(first) < size, "the answer left unread the longest was cut")
    #expect(all(second) > size, "the other one whole")
  }

  /// The share's key is the path as the gateway resolves it: spellings of one path (escaped, a
  /// trailing `/`, another method, another query) are one key; other paths are not.
  @Test func spellingsOfOnePathShareItsKey() {
    let key = HTTPServer.pathKey("/rest/v1/rpc/slow")
    for spelling in ["/rest/v1/rpc/%73low", "/rest/v1/rpc/slow?a=1", "/rest/v1/rpc/slow/"] {
      #expect(HTTPServer.pathKey(spelling) == key, "\(spelling)")
    }
    #expect(HTTPServer.pathKey("/rest/v1/slow_view//?select=id") == "/rest/v1/slow_view")
    #expect(HTTPServer.pathKey("/") == "/")
    #expect(HTTPServer.pathKey("/rest/v1/rpc/quick") != key)
    let function = HTTPServer.pathKey("/functions/v1/slow")
    for spelling in [
      "/functions/v1/slow/1", "/functions/v1//slow/2?x=1", "/functions/v1/%73low/a/b",
    ] {
      #expect(HTTPServer.pathKey(spelling) == function, "\(spelling)")
    }
    #expect(HTTPServer.pathKey("/functions/v1/quick/1") != function)
  }

  /// Requests to one path take at most half the workers: with four workers and a slow path
  /// called four times at once, two of them run, and a request to another path is answered while
  /// they wait (it used to wait behind all four).
  @Test func aSlowPathLeavesWorkersForOthers() throws {
    let release = DispatchSemaphore(value: 0)
    let started = Mutex(0)
    var limits = HTTPServerLimits()
    limits.maxWorkers = 4
    limits.minimumWorkers = 1
    let server = HTTPServer(port: 0, limits: limits) { request in
      if request.path == "/slow" {
        started.withLock { $0 += 1 }
        _ = release.wait(timeout: .now() + 10)
      }
      return .json(status: 200, "{}")
    }
    try server.start()
    defer { server.stop() }
    var slow: [Int32] = []
    defer { for fd in slow { close(fd) } }
    for index in 0..<4 {
      let fd = try Self.connectTo(server.port)
      Self.send(fd, "GET /slow?call=\(index) HTTP/1.1\r\nHost: x\r\n\r\n")
      slow.append(fd)
    }
    // Every slow call has run or waits for a worker.
    let deadline = monotonicSeconds() + 30
    while server.workers.pending + started.withLock({ $0 }) < 4 && monotonicSeconds() < deadline {
      usleep(5_000)
    }
    let other = try Self.connectTo(server.port)
    defer { close(other) }
    Self.send(other, "GET /fast HTTP/1.1\r\nHost: x\r\n\r\n")
    #expect(Self.received(other).hasPrefix("HTTP/1.1 200 OK"), "answered while the slow ones wait")
    #expect(started.withLock { $0 } == 2, "half the workers on one path")
    for _ in 0..<4 { release.signal() }
    for fd in slow { #expect(Self.received(fd).hasPrefix("HTTP/1.1 200 OK")) }
  }

  /// A client that does not read its answer does not hold a worker: with one worker and an
  /// answer of 8 MiB (in memory, from a file, or streamed as a database's rows are) left unread,
  /// another client is answered at once (it used to wait for the write timeout, 30 s; a streamed
  /// one until 2026-12-04); the first then reads all of its answer and the request it pipelined
  /// behind it.
  @Test(arguments: ["memory", "file", "stream"]) func aSlowReaderDoesNotHoldAWorker(body: String)
    throws
  {
    let size = 8 << 20
    let bytes = [UInt8](repeating: UInt8(ascii: "x"), count: size)
    let path = FileManager.default.temporaryDirectory
      .appendingPathComponent("snm-slow-reader-\(getpid())-\(body)").path
    try Data(bytes).write(to: URL(fileURLWithPath: path))
    defer { unlink(path) }
    var limits = HTTPServerLimits()
    limits.maxWorkers = 1
    limits.minimumWorkers = 1
    let server = HTTPServer(port: 0, limits: limits) { request in
      guard request.path == "/big" else { return .json(status: 200, "{}") }
      var response = HTTPResponse(status: 200)
      switch body {
      case "file":
        response.bodyFile = HTTPFileBody(fd: open(path, O_RDONLY), offset: 0, length: Int64(size))
      case "stream":
        response.bodyStream = Self.streamed(bytes)
      default:
        response.body = bytes
      }
      return response
    }
    try server.start()
    defer { server.stop() }
    let slow = try Self.slowReaderThenAnother(
      server,
      sending: "GET /big HTTP/1.1\r\nHost: x\r\n\r\nGET /after HTTP/1.1\r\nHost: x\r\n\r\n")
    defer { close(slow) }
    // The big answer whole, then the pipelined one.
    let marker = Array("\r\n\r\n{}".utf8)
    let received = Self.receivedBytes(slow) {
      $0.count > size && $0.suffix(marker.count).elementsEqual(marker)
    }
    let text = String(decoding: received.prefix(200), as: UTF8.self)
    #expect(text.hasPrefix("HTTP/1.1 200 OK"))
    let heads = String(decoding: received.filter { $0 != UInt8(ascii: "x") }, as: UTF8.self)
    #expect(heads.components(separatedBy: "HTTP/1.1 200 OK").count == 3, "both answers")
    #expect(received.count { $0 == UInt8(ascii: "x") } == size, "the big body whole")
  }

  /// A streamed answer its client does not read is kept only up to `heldAnswerBytes`; past it,
  /// with no worker free to wait for the client (`maxWorkersWaitingOnReaders` 0), it is cut: the
  /// client gets no last chunk and the connection closes, the worker serves another client, and
  /// the memory held for the answer is given back.
  @Test func aStreamedAnswerPastItsBoundIsCutWhenNoWorkerMayWait() throws {
    let size = 64 << 20  // more than the sockets' buffers take
    let bytes = [UInt8](repeating: UInt8(ascii: "x"), count: size)
    var limits = HTTPServerLimits()
    limits.maxWorkers = 1
    limits.minimumWorkers = 1
    limits.heldAnswerBytes = 1 << 20
    limits.maxWorkersWaitingOnReaders = 0
    let server = HTTPServer(port: 0, limits: limits) { request in
      guard request.path == "/big" else { return .json(status: 200, "{}") }
      var response = HTTPResponse(status: 200)
      response.bodyStream = Self.streamed(bytes)
      return response
    }
    try server.start()
    defer { server.stop() }
    let slow = try Self.slowReaderThenAnother(
      server, sending: "GET /big HTTP/1.1\r\nHost: x\r\n\r\n")
    defer { close(slow) }
    let received = Self.receivedBytes(slow)
    #expect(String(decoding: received.prefix(200), as: UTF8.self).hasPrefix("HTTP/1.1 200 OK"))
    #expect(received.count { $0 == UInt8(ascii: "x") } < size, "cut short")
    #expect(!received.suffix(5).elementsEqual(HTTPResponseWriter.lastChunk), "no last chunk")
    let deadline = monotonicSeconds() + 30
    while server.held.held != 0 && monotonicSeconds() < deadline { usleep(10_000) }
    #expect(server.held.held == 0, "the memory held is given back")
  }

  /// Six requests answered at once take six workers (each handler waits for the others); once
  /// idle, all but `minimumWorkers` end.
  @Test func idleWorkersEnd() throws {
    let inFlight = Mutex(0)
    let server = try server(capacity: 16, workerIdle: 0.2) { _ in
      inFlight.withLock { $0 += 1 }
      let deadline = monotonicSeconds() + 30
      while inFlight.withLock({ $0 }) < 6 && monotonicSeconds() < deadline { usleep(5_000) }
      return .json(status: 200, "{}")
    }
    defer { server.stop() }
    var sockets: [Int32] = []
    for _ in 0..<6 { sockets.append(try Self.connectTo(server.port)) }
    for fd in sockets { Self.send(fd, "GET / HTTP/1.1\r\nHost: x\r\n\r\n") }
    for fd in sockets { #expect(Self.received(fd).hasPrefix("HTTP/1.1 200 OK")) }
    #expect(server.workerCount == 6)
    inFlight.withLock { $0 = 6 }
    for fd in sockets { close(fd) }
    let deadline = monotonicSeconds() + 30
    while server.workerCount > 1 && monotonicSeconds() < deadline { usleep(50_000) }
    #expect(server.workerCount == 1, "one kept, the others ended")
    let later = try Self.connectTo(server.port)
    defer { close(later) }
    Self.send(later, "GET / HTTP/1.1\r\nHost: x\r\n\r\n")
    #expect(Self.received(later).hasPrefix("HTTP/1.1 200 OK"))
  }

  /// A request that waited for a worker while its client hung up is dropped unanswered: its
  /// handler (the statements, their cancel) never runs, and the next client is served.
  @Test func aQueuedRequestWhoseClientLeftIsNotAnswered() throws {
    let release = DispatchSemaphore(value: 0)
    let paths = Mutex<[String]>([])
    var limits = HTTPServerLimits()
    limits.maxWorkers = 1
    limits.minimumWorkers = 1
    let server = HTTPServer(port: 0, limits: limits) { request in
      paths.withLock { $0.append(request.path) }
      if request.path == "/slow" { _ = release.wait(timeout: .now() + 30) }
      return .json(status: 200, "{}")
    }
    try server.start()
    defer { server.stop() }
    let slow = try Self.connectTo(server.port)
    defer { close(slow) }
    Self.send(slow, "GET /slow HTTP/1.1\r\nHost: x\r\n\r\n")
    let deadline = monotonicSeconds() + 30
    while paths.withLock({ $0.isEmpty }) && monotonicSeconds() < deadline { usleep(5_000) }
    let gone = try Self.connectTo(server.port)
    Self.send(gone, "GET /gone HTTP/1.1\r\nHost: x\r\n\r\n")
    while server.workers.pending == 0 && monotonicSeconds() < deadline { usleep(5_000) }
    close(gone)
    usleep(20_000)
    release.signal()
    #expect(Self.received(slow).hasPrefix("HTTP/1.1 200 OK"))
    let next = try Self.connectTo(server.port)
    defer { close(next) }
    Self.send(next, "GET /next HTTP/1.1\r\nHost: x\r\n\r\n")
    #expect(Self.received(next).hasPrefix("HTTP/1.1 200 OK"))
    #expect(paths.withLock { $0 } == ["/slow", "/next"], "the hung-up client's request never ran")
  }

  /// A worker keeping a connection for its client's next request lets go of it as soon as
  /// another request waits for a worker: with one worker and a 30 s linger, a second client is
  /// still answered at once, and the first one's next request later too.
  @Test func aLingeringWorkerLetsGoWhenAnotherRequestWaits() throws {
    var limits = HTTPServerLimits()
    limits.maxWorkers = 1
    limits.minimumWorkers = 1
    limits.workerLinger = 30
    let server = HTTPServer(port: 0, limits: limits) { _ in .json(status: 200, "{}") }
    try server.start()
    defer { server.stop() }
    let first = try Self.connectTo(server.port)
    defer { close(first) }
    Self.send(first, "GET / HTTP/1.1\r\nHost: x\r\n\r\n")
    #expect(Self.received(first).hasPrefix("HTTP/1.1 200 OK"))
    let second = try Self.connectTo(server.port)
    defer { close(second) }
    Self.send(second, "GET / HTTP/1.1\r\nHost: x\r\n\r\n")
    #expect(Self.received(second).hasPrefix("HTTP/1.1 200 OK"), "answered within the 5 s read")
    Self.send(first, "GET / HTTP/1.1\r\nHost: x\r\n\r\n")
    #expect(Self.received(first).hasPrefix("HTTP/1.1 200 OK"))
  }

  /// Bytes waiting on a socket (FIONREAD).
  static func pending(_ fd: Int32) -> Int32 {
    var count: Int32 = 0
    _ = ioctl(fd, UInt(FIONREAD), &count)
    return count
  }

  /// A connected pair of stream sockets whose reads time out after 2 s.
  static func socketPair() throws -> (Int32, Int32) {
    var pair: [Int32] = [-1, -1]
    try #require(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &pair) == 0)
    var limit = timeval(tv_sec: 2, tv_usec: 0)
    for fd in pair {
      setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
    }
    return (pair[0], pair[1])
  }

  /// The loop's view of a connection idle since `since` (its poll handle is never started).
  static func entry(_ socket: Int32, idleSince since: Double) -> HTTPEventLoop.Entry {
    let reader = HTTPRequestReader(limits: .requests)
    return HTTPEventLoop.Entry(
      connection: HTTPConnection(
        socket: socket, remoteAddress: "test", reader: reader,
        held: HTTPHeldAnswers(perAnswer: 0, total: 0, waiters: 0)),
      poll: .allocate(capacity: 1), idleSince: since, lastActivity: since)
  }

  /// Eviction and a request arriving: a connection whose request bytes wait unread in the socket
  /// is not idle, so only connections with nothing of a request in are closed to make room.
  @Test func aConnectionWithARequestArrivingIsNotEvicted() throws {
    let (arriving, arrivingClient) = try Self.socketPair()
    let (quiet, quietClient) = try Self.socketPair()
    let (busy, busyClient) = try Self.socketPair()
    defer {
      for fd in [arriving, arrivingClient, quiet, quietClient, busy, busyClient] { close(fd) }
    }
    Self.send(arrivingClient, "GET / HTTP/1.1\r\n")
    var connections: [Int32: HTTPEventLoop.Entry] = [:]
    connections[arriving] = Self.entry(arriving, idleSince: 1)
    var answering = Self.entry(busy, idleSince: 0)
    answering.onWorker = true
    connections[busy] = answering
    #expect(HTTPEventLoop.longestIdle(connections) == nil, "the only idle one has bytes waiting")
    connections[quiet] = Self.entry(quiet, idleSince: 2)
    #expect(HTTPEventLoop.longestIdle(connections) == quiet, "the newer, truly idle one")
    for entry in connections.values { entry.poll.deallocate() }
  }
}
