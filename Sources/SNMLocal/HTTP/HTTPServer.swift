import Foundation
import SNMWire
import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// An HTTP/1.1 server on 127.0.0.1: keep-alive, Content-Length and chunked bodies, limits, timeouts.
///
/// ```swift
/// let server = HTTPServer(port: 54321) { request in .json(status: 200, #"{"ok":true}"#) }
/// try server.start()      // binds and returns; connections are served on worker threads
/// server.port             // the bound port (useful with port 0)
/// server.stop()
/// ```
/// Each connection is served by one worker thread, reused for later connections, so requests
/// never create threads. Handlers run on those threads and may block (libpq). `start` throws
/// `HTTPServerError` when the port is taken.
public final class HTTPServer: Sendable {
  public typealias Handler = @Sendable (HTTPRequest) -> HTTPResponse

  public let limits: HTTPServerLimits
  let handler: Handler
  let requestedPort: Int
  let state = Mutex<State>(State())
  let wakeup = DispatchSemaphore(value: 0)

  struct State {
    var listener: Int32 = -1
    var boundPort = 0
    var queue: [(Int32, String)] = []
    var idleWorkers = 0
    var workers = 0
    var stopped = false
  }

  public init(port: Int, limits: HTTPServerLimits = HTTPServerLimits(), handler: @escaping Handler)
  {
    self.requestedPort = port
    self.limits = limits
    self.handler = handler
  }

  /// The port the server listens on (after `start`).
  public var port: Int { state.withLock { $0.boundPort } }

  /// Binds 127.0.0.1:`port`, listens, and starts accepting on a background thread.
  ///
  /// Throws `HTTPServerError` (`bind` with errno 98 when the port is in use).
  public func start() throws(HTTPServerError) {
    signal(SIGPIPE, SIG_IGN)
    let listener = try Self.listen(port: requestedPort)
    let bound = Self.boundPort(of: listener)
    state.withLock {
      $0.listener = listener
      $0.boundPort = bound
    }
    let acceptor = Thread { [self] in acceptLoop(listener) }
    acceptor.name = "snm-http-accept"
    acceptor.start()
  }

  /// Stops accepting; connections being served finish their current request, then their
  /// workers end, and idle workers end at once.
  public func stop() {
    let (listener, idle) = state.withLock { state -> (Int32, Int) in
      state.stopped = true
      let fd = state.listener
      state.listener = -1
      defer { state.idleWorkers = 0 }
      return (fd, state.idleWorkers)
    }
    if listener >= 0 {
      shutdown(listener, Int32(SHUT_RDWR))
      close(listener)
    }
    for _ in 0..<idle { wakeup.signal() }
  }

  /// Worker threads alive (serving a connection or idle).
  var workerCount: Int { state.withLock { $0.workers } }

  func acceptLoop(_ listener: Int32) {
    while true {
      var address = sockaddr_in()
      var length = socklen_t(MemoryLayout<sockaddr_in>.size)
      let client = withUnsafeMutablePointer(to: &address) { pointer in
        pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { accept(listener, $0, &length) }
      }
      if client < 0 {
        if errno == EINTR || errno == ECONNABORTED || errno == EMFILE || errno == ENFILE {
          if errno == EMFILE || errno == ENFILE { usleep(10_000) }
          if state.withLock({ $0.stopped }) { return }
          continue
        }
        return
      }
      configure(client)
      dispatch(client, remote: Self.addressText(address))
    }
  }

  func configure(_ socket: Int32) {
    var one: Int32 = 1
    setsockopt(socket, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
    var slice = timeval(tv_sec: 1, tv_usec: 0)
    setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &slice, socklen_t(MemoryLayout<timeval>.size))
    let write = max(1, Int(limits.writeTimeout))
    var writeLimit = timeval(tv_sec: write, tv_usec: 0)
    setsockopt(socket, SOL_SOCKET, SO_SNDTIMEO, &writeLimit, socklen_t(MemoryLayout<timeval>.size))
  }

  /// Hands the socket to an idle worker, or a new one; past `maxConnections` answers 503.
  func dispatch(_ socket: Int32, remote: String) {
    enum Decision { case wake, spawn, refuse }
    let decision = state.withLock { state -> Decision in
      if state.idleWorkers > 0 {
        state.idleWorkers -= 1
        state.queue.append((socket, remote))
        return .wake
      }
      guard state.workers < limits.maxConnections else { return .refuse }
      state.workers += 1
      state.queue.append((socket, remote))
      return .spawn
    }
    switch decision {
    case .wake:
      wakeup.signal()
    case .spawn:
      let worker = Thread { [self] in workerLoop() }
      worker.stackSize = 4 << 20  // room for deep parses in handlers
      worker.name = "snm-http-worker"
      worker.start()
      wakeup.signal()
    case .refuse:
      let connection = HTTPConnection(
        socket: socket, limits: limits, handler: handler, remoteAddress: remote)
      let busy = HTTPParseError(status: 503, message: "too many connections")
      _ = connection.write(
        HTTPResponseWriter.serialize(
          HTTPResponseWriter.failure(busy), keepAlive: false, bodyless: false))
      close(socket)
    }
  }

  /// Serves the connections handed to it until the server stops.
  func workerLoop() {
    while true {
      wakeup.wait()
      enum Next { case serve(Int32, String), exit, wait }
      let next = state.withLock { state -> Next in
        if !state.queue.isEmpty {
          let (socket, remote) = state.queue.removeFirst()
          return .serve(socket, remote)
        }
        return state.stopped ? .exit : .wait
      }
      switch next {
      case .wait: continue
      case .exit: return retire()
      case .serve(let socket, let remote):
        HTTPConnection(socket: socket, limits: limits, handler: handler, remoteAddress: remote)
          .serve()
      }
      let stopped = state.withLock { state in
        if !state.stopped { state.idleWorkers += 1 }
        return state.stopped
      }
      if stopped { return retire() }
    }
  }

  private func retire() {
    state.withLock { $0.workers -= 1 }
  }
}
