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
/// never create threads; a worker left waiting `workerIdleTimeout` seconds ends (a few stay).
/// Handlers run on those threads and may block (libpq). When `maxConnections` are open, a new
/// connection takes the place of the one idle the longest between requests, so idle
/// connections, however many, cannot shut new clients out. `start` throws `HTTPServerError`
/// when the port is taken.
public final class HTTPServer: Sendable {
  public typealias Handler = @Sendable (HTTPRequest) -> HTTPResponse
  /// Shown each request's head (its body not read yet): whether to buffer the body, stream it to
  /// a sink, or answer at once (``HTTPBodyPlan``).
  public typealias BodyPlanner = @Sendable (HTTPRequest) -> HTTPBodyPlan

  public let limits: HTTPServerLimits
  let handler: Handler
  let planner: BodyPlanner?
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
    /// Connections being served, by socket. A socket leaves this table before its worker
    /// closes it, so one found here is open.
    var connections: [Int32: Tracked] = [:]
    /// Connections served at once: `limits.maxConnections`, or fewer when the process may not
    /// open that many files.
    var capacity = 0
  }

  /// One connection being served.
  struct Tracked {
    /// Since when it has waited for a request with nothing of one received; nil while one is
    /// read or answered.
    var idleSince: Double?
    /// Shut down to make room: its worker is ending it.
    var closing = false
  }

  /// Queued connections (waiting for a worker that a closed idle one frees) at most.
  static let maxQueued = 256

  public init(
    port: Int, limits: HTTPServerLimits = HTTPServerLimits(), handler: @escaping Handler,
    bodyPlanner: BodyPlanner? = nil
  ) {
    self.requestedPort = port
    self.limits = limits
    self.handler = handler
    self.planner = bodyPlanner
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
    let capacity = min(limits.maxConnections, max(16, Self.openFileLimit() - 128))
    state.withLock {
      $0.listener = listener
      $0.boundPort = bound
      $0.capacity = capacity
    }
    let acceptor = Thread { [self] in acceptLoop(listener) }
    acceptor.name = "snm-http-accept"
    acceptor.start()
  }

  /// Stops accepting; connections being served finish their current request, then their
  /// workers end, and idle workers end at once.
  ///
  /// The listening socket is shut down here and closed by the accepting thread as it ends: closed
  /// here, its number could be reused (by another server's socket) while that thread still
  /// accepts on it.
  public func stop() {
    let (listener, idle) = state.withLock { state -> (Int32, Int) in
      state.stopped = true
      let fd = state.listener
      state.listener = -1
      defer { state.idleWorkers = 0 }
      return (fd, state.idleWorkers)
    }
    if listener >= 0 { shutdown(listener, Int32(SHUT_RDWR)) }
    for _ in 0..<idle { wakeup.signal() }
  }

  /// Worker threads alive (serving a connection or idle).
  var workerCount: Int { state.withLock { $0.workers } }

  func acceptLoop(_ listener: Int32) {
    defer { close(listener) }
    while true {
      var address = sockaddr_in()
      var length = socklen_t(MemoryLayout<sockaddr_in>.size)
      let client = withUnsafeMutablePointer(to: &address) { pointer in
        pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { accept(listener, $0, &length) }
      }
      if client >= 0 && state.withLock({ $0.stopped }) {
        close(client)
        return
      }
      if client < 0 {
        if errno == EINTR || errno == ECONNABORTED || errno == EMFILE || errno == ENFILE {
          if errno == EMFILE || errno == ENFILE {
            // Out of descriptors: close the longest-idle connection so one is free soon.
            state.withLock { _ = Self.closeLongestIdle(&$0) }
            usleep(10_000)
          }
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

  /// Hands the socket to an idle worker, or a new one; at capacity, closes the connection idle
  /// the longest and queues this one for its worker; with none idle, answers 503.
  func dispatch(_ socket: Int32, remote: String) {
    enum Decision { case wake, spawn, queued, refuse }
    let decision = state.withLock { state -> Decision in
      if state.idleWorkers > 0 {
        state.idleWorkers -= 1
        state.queue.append((socket, remote))
        return .wake
      }
      if state.workers < state.capacity {
        state.workers += 1
        state.queue.append((socket, remote))
        return .spawn
      }
      guard state.queue.count < Self.maxQueued, Self.closeLongestIdle(&state) else {
        return .refuse
      }
      state.queue.append((socket, remote))
      return .queued
    }
    switch decision {
    case .queued:
      break
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
        socket: socket, limits: limits, handler: handler, planner: planner, remoteAddress: remote)
      let busy = HTTPParseError(status: 503, message: "too many connections")
      _ = connection.write(
        HTTPResponseWriter.serialize(
          HTTPResponseWriter.failure(busy), keepAlive: false, bodyless: false))
      close(socket)
    }
  }

  /// Serves queued connections until the server stops; parks between them, and ends after
  /// `workerIdleTimeout` seconds without one (unless only `minimumWorkers` are left).
  func workerLoop() {
    var next: (Int32, String)? = nil
    while true {
      guard let (socket, remote) = next else {
        let woken = wakeup.wait(timeout: .now() + limits.workerIdleTimeout) == .success
        enum After { case serve((Int32, String)), wait, exit }
        let after = state.withLock { state -> After in
          if !state.queue.isEmpty { return .serve(state.queue.removeFirst()) }
          if state.stopped {
            state.workers -= 1
            return .exit
          }
          if woken {
            // Another worker took what this wake was for: idle again.
            state.idleWorkers += 1
            return .wait
          }
          guard state.idleWorkers > limits.minimumWorkers else { return .wait }
          state.idleWorkers -= 1
          state.workers -= 1
          return .exit
        }
        switch after {
        case .serve(let taken): next = taken
        case .wait: break
        case .exit: return
        }
        continue
      }
      serve(socket, remote: remote)
      enum Then { case serve((Int32, String)), park, exit }
      let then = state.withLock { state -> Then in
        if !state.queue.isEmpty { return .serve(state.queue.removeFirst()) }
        if state.stopped {
          state.workers -= 1
          return .exit
        }
        state.idleWorkers += 1
        return .park
      }
      switch then {
      case .serve(let taken): next = taken
      case .park: next = nil
      case .exit: return
      }
    }
  }

  /// Serves one connection, tracked in `connections` while it lasts, then closes it.
  func serve(_ socket: Int32, remote: String) {
    state.withLock { $0.connections[socket] = Tracked() }
    var connection = HTTPConnection(
      socket: socket, limits: limits, handler: handler, planner: planner, remoteAddress: remote)
    connection.reportIdle = { [self] idle in
      let now = monotonicSeconds()
      return state.withLock { state in
        guard state.connections[socket]?.closing == false else { return false }
        state.connections[socket]?.idleSince = idle ? now : nil
        return true
      }
    }
    connection.serve()
    state.withLock { _ = $0.connections.removeValue(forKey: socket) }
    close(socket)
  }

  /// Shuts down the connection that has waited longest for a request (its worker then ends it
  /// and serves the queue); false when none is idle. One whose request has begun to arrive (bytes
  /// waiting to be read) is not idle. Under the lock, so the socket is still open: a worker
  /// removes its socket from `connections` before it closes it.
  static func closeLongestIdle(_ state: inout State) -> Bool {
    let idle = state.connections.compactMap { socket, tracked -> (Int32, Double)? in
      guard !tracked.closing, let since = tracked.idleSince else { return nil }
      return (socket, since)
    }
    for (socket, _) in idle.sorted(by: { $0.1 < $1.1 }) {
      var pending: Int32 = 0
      if ioctl(socket, UInt(FIONREAD), &pending) == 0 && pending > 0 { continue }
      state.connections[socket]?.closing = true
      shutdown(socket, Int32(SHUT_RDWR))
      return true
    }
    return false
  }

  /// The soft limit on open files, raised to the hard one first (connections are files).
  static func openFileLimit() -> Int {
    var limit = rlimit()
    let files = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
    guard getrlimit(files, &limit) == 0 else { return 1024 }
    if limit.rlim_cur < limit.rlim_max {
      var raised = limit
      raised.rlim_cur = limit.rlim_max
      if setrlimit(files, &raised) == 0 { limit = raised }
    }
    return limit.rlim_cur > rlim_t(Int32.max) ? Int(Int32.max) : Int(limit.rlim_cur)
  }
}
