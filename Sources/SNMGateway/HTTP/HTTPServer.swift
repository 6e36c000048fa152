import CLibUV
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
/// try server.start()      // binds and returns; connections are served from an event loop
/// server.port             // the bound port (useful with port 0)
/// server.stop()
/// ```
/// `HTTPServer(listening: fd, ...)` serves on a listening socket it is given instead (`snm local
/// serve`'s supervisor holds it across its workers, so a client never finds the port closed
/// while one starts); its `stop` ends the listening for every process that holds it.
/// One thread runs a libuv event loop (epoll): it accepts, reads and parses every connection,
/// answers what needs no handler (malformed requests, 408, 413, 431, 503) and keeps the timers.
/// A whole request goes to a small pool of worker threads (``HTTPWorkerPool``), where handlers
/// run and may block (libpq); the worker writes the answer (streamed ones as they are produced),
/// answers any request already pipelined behind it, and hands the connection back to the loop.
/// An upload's body is read by the loop and given to its sink on a worker a few hundred KiB at a
/// time, and what of an answer a client does not take at once the loop sends as it reads (a
/// streamed answer's rest is kept in memory up to a bound while the worker produces it,
/// ``HTTPHeldAnswers``): no worker waits on a slow client's bytes, but for a few, past that bound.
/// An idle connection costs a socket and a few hundred bytes, never a thread, so thousands may
/// wait. When `maxConnections` are open, a new connection takes the place of the one idle the
/// longest between requests. `start` throws `HTTPServerError` when the port is taken.
public final class HTTPServer: Sendable {
  public typealias Handler = @Sendable (HTTPRequest) -> HTTPResponse
  /// Shown each request's head (its body not read yet): whether to buffer the body, stream it to
  /// a sink, or answer at once (``HTTPBodyPlan``).
  public typealias BodyPlanner = @Sendable (HTTPRequest) -> HTTPBodyPlan

  public let limits: HTTPServerLimits
  let handler: Handler
  let planner: BodyPlanner?
  let requestedPort: Int
  /// The listening socket given to `init(listening:)`, or -1: `start` binds one.
  let given: Int32
  let state = Mutex<State>(State())
  let workers: HTTPWorkerPool
  /// What only the loop thread touches (the libuv handles, the connections it owns).
  let loop = Mutex<HTTPEventLoop>(HTTPEventLoop())
  /// Connections workers are done with, for the loop to take back (true) or close (false).
  let returned = Mutex<[(HTTPConnection, Bool)]>([])
  /// The memory and workers streamed answers to clients that do not read may take.
  let held: HTTPHeldAnswers

  struct State {
    var boundPort = 0
    var stopped = false
    /// The loop's wake-up handle (`uv_async_t`) as an address, for `uv_async_send` from any
    /// thread; 0 before `start` and once the loop has ended.
    var wakeAddress = 0
  }

  public convenience init(
    port: Int, limits: HTTPServerLimits = HTTPServerLimits(), handler: @escaping Handler,
    bodyPlanner: BodyPlanner? = nil
  ) {
    self.init(port: port, given: -1, limits: limits, handler: handler, bodyPlanner: bodyPlanner)
  }

  /// A server on `socket`, a TCP socket already listening on 127.0.0.1 (another process may hold
  /// it too). `start` serves on it; `stop` shuts it down, which ends the listening for every
  /// process that holds it: a client that connects afterwards is refused, not left waiting in
  /// its queue.
  package convenience init(
    listening socket: Int32, limits: HTTPServerLimits = HTTPServerLimits(),
    handler: @escaping Handler, bodyPlanner: BodyPlanner? = nil
  ) {
    self.init(
      port: Self.boundPort(of: socket), given: socket, limits: limits, handler: handler,
      bodyPlanner: bodyPlanner)
  }

  init(
    port: Int, given: Int32, limits: HTTPServerLimits, handler: @escaping Handler,
    bodyPlanner: BodyPlanner?
  ) {
    self.requestedPort = port
    self.given = given
    self.limits = limits
    self.handler = handler
    self.planner = bodyPlanner
    self.workers = HTTPWorkerPool(
      maximum: limits.maxWorkers, minimum: limits.minimumWorkers,
      idleTimeout: limits.workerIdleTimeout,
      perKey: limits.maxWorkersPerPath ?? max(1, limits.maxWorkers / 2))
    self.held = HTTPHeldAnswers(
      perAnswer: limits.heldAnswerBytes, total: limits.heldAnswersTotal,
      waiters: limits.maxWorkersWaitingOnReaders ?? limits.maxWorkers / 4)
  }

  /// The port the server listens on (after `start`).
  public var port: Int { state.withLock { $0.boundPort } }

  /// Binds 127.0.0.1:`port` and listens (unless given a listening socket), and starts the event
  /// loop on a thread of its own.
  ///
  /// Throws `HTTPServerError` (`bind` with errno 98 when the port is in use).
  public func start() throws(HTTPServerError) {
    signal(SIGPIPE, SIG_IGN)
    let listener = given >= 0 ? given : try Self.listen(port: requestedPort)
    let bound = Self.boundPort(of: listener)
    let capacity = min(limits.maxConnections, max(16, Self.openFileLimit() - 128))
    let ready = DispatchSemaphore(value: 0)
    let thread = Thread { [self] in
      runLoop(listener: listener, capacity: capacity, ready: ready)
    }
    thread.name = "snm-http-loop"
    thread.start()
    ready.wait()
    state.withLock { $0.boundPort = bound }
  }

  /// Stops accepting and closes the connections waiting for a request; those being answered
  /// finish their current request, then close, and the workers end.
  public func stop() {
    state.withLock { state in
      state.stopped = true
      Self.wake(state)
    }
    workers.stop()
  }

  /// Wakes the loop (under the state lock: the loop clears `wakeAddress` under it before it
  /// closes the handle, so the handle is never used once freed).
  static func wake(_ state: State) {
    if let wake = UnsafeMutablePointer<uv_async_t>(bitPattern: state.wakeAddress) {
      uv_async_send(wake)
    }
  }

  var isStopped: Bool { state.withLock { $0.stopped } }

  /// Worker threads alive (answering a request or idle).
  var workerCount: Int { workers.count }

  /// Gives a connection back from a worker: the loop reads it again (`keep`) or closes it.
  func giveBack(_ connection: HTTPConnection, keep: Bool) {
    returned.withLock { $0.append((connection, keep)) }
    // The loop ends only once every connection came back, so it is still there to take this.
    state.withLock { Self.wake($0) }
  }

  /// Seconds a request may wait for a worker before the worker checks that its client is still
  /// there (one `poll`); a request answered at once never pays for the check.
  static let staleWait = 0.001

  /// Answers `step` (a whole request, or a body that streams) on a worker, then gives the
  /// connection back.
  func serveOnWorker(_ connection: HTTPConnection, _ step: sending HTTPRequestReader.Step) {
    connection.handedOver.withLock { $0 = step }
    let queuedAt = monotonicSeconds()
    // Requests to one path, whatever the method or spelling, share half the workers.
    var key: String?
    switch step {
    case .request(let request, _): key = Self.pathKey(request.target)
    case .planning:
      key = connection.reader.withLock { $0.unplanned.map { Self.pathKey($0.target) } }
    default: break
    }
    workers.submit(key: key) { [self] in
      let step = connection.handedOver.withLock { handed in
        defer { handed = nil }
        return handed ?? .needMore
      }
      // A request that waited for a worker may have been given up on (a crowd of clients
      // closing at once leaves hundreds queued): answering it would run its statements and,
      // once the watcher saw the hang-up, cancel them (a new backend forked for each cancel).
      if case .request = step, monotonicSeconds() - queuedAt > Self.staleWait,
        HTTPPeer(socket: connection.socket).hasHungUp
      {
        giveBack(connection, keep: false)
        return
      }
      let keep = connection.serve(step, limits: limits, handler: handler, busy: workers.waiting) {
        workers.pending == 0 && !isStopped
      }
      giveBack(connection, keep: keep && !isStopped)
    }
  }

  /// A request's path (its target before `?`), percent-decoded, without a trailing `/`: what
  /// `maxWorkersPerPath` counts by. Neither the method nor another spelling of the path makes
  /// another key, so one slow endpoint called as `GET` and `POST`, or as `rpc/slow`,
  /// `rpc/%73low`, or a view as `slow` and `slow/`, shares one half. An Edge Function is one
  /// path whatever sub-path it is called on (`/functions/v1/slow/1`, `//slow/2`): it serves
  /// them all, so they share its half.
  static func pathKey(_ target: String) -> String {
    var path = target.utf8.firstIndex(of: UInt8(ascii: "?")).map { target[..<$0] } ?? target[...]
    while path.utf8.count > 1, path.utf8.last == UInt8(ascii: "/") {
      path = Substring(path.utf8.dropLast())
    }
    let decoded =
      path.utf8.contains(UInt8(ascii: "%")) ? PercentEncoding.decode(path) : String(path)
    let functions = "/functions/v1/"
    guard decoded.hasPrefix(functions) else { return decoded }
    let name = decoded.dropFirst(functions.count).drop { $0 == "/" }.prefix { $0 != "/" }
    return functions + name
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
