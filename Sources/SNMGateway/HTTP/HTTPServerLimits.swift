import SNMWire

/// Sizes and times the HTTP server enforces on every connection.
///
/// ```swift
/// var limits = HTTPServerLimits()
/// limits.framing.maxBodyBytes = 1 << 20      // 413 past 1 MiB
/// limits.requestTimeout = 5                  // 408 when a request takes longer to arrive
/// ```
public struct HTTPServerLimits: Sendable, Equatable {
  /// Request line, header and body sizes (SNMWire's, the ones the decoder enforces) for bodies
  /// read whole.
  public var framing = HTTPLimits.requests
  /// The largest body a planner may stream to a sink (an upload); the sink holds it to its own
  /// limit within this.
  public var streamedBodyBytes = HTTPLimits.requests.maxBodyBytes
  /// Seconds a request may take to arrive once its first byte came; then 408 and close.
  public var requestTimeout: Double = 30
  /// Bytes a second a streamed body (an upload) must keep up, over each `requestTimeout`, to
  /// take longer than `requestTimeout`; 408 when a window brings fewer. (The event loop waits
  /// for a body's bytes, never a worker.)
  public var minimumBodyRate: Double = 16_384
  /// Seconds an idle keep-alive connection stays open between requests.
  public var idleTimeout: Double = 60
  /// Seconds a blocked write may wait for the client to read.
  public var writeTimeout: Double = 30
  /// Bytes of a streamed answer (rows from the database) a client that does not read may leave
  /// in memory while the worker produces the rest; the loop sends them as the client reads.
  public var heldAnswerBytes = 16 << 20
  /// Bytes all such answers may hold together.
  public var heldAnswersTotal = 256 << 20
  /// Workers that may wait for a client past those bounds (up to `writeTimeout`); a streamed
  /// answer past them with none free is cut (the connection closes). Nil: a quarter of
  /// `maxWorkers`, so the rest are kept for requests whose clients read.
  public var maxWorkersWaitingOnReaders: Int?
  /// Connections served at once (fewer when the process may not open that many files). At the
  /// limit a new connection takes the place of the one idle the longest between requests (which
  /// is closed, as a keep-alive connection may be at any time), else of the one that has kept the
  /// server's pace the least for `slowHeadAge` seconds; with neither it gets 503.
  public var maxConnections = 16_384
  /// Seconds after which, at `maxConnections` with none idle, a connection that does not keep
  /// pace may be closed to make room for a new one: a request head still arriving (408), a body
  /// that has brought fewer than `minimumBodyRate` bytes a second since its request began (408),
  /// or an answer its client has taken nothing of for that long (cut). The one stalled since the
  /// earliest goes first: connections a client does not use cannot shut every new client out.
  public var slowHeadAge: Double = 2
  /// Threads answering requests at once (handlers may block on the database); more requests
  /// wait for one in order.
  public var maxWorkers = 32
  /// Requests to one path (percent-decoded, whatever the method; not the query) answered at once; more wait while
  /// requests to other paths pass them, so a slow endpoint many clients call leaves workers (and
  /// database connections) for the rest. Nil: half of `maxWorkers`.
  public var maxWorkersPerPath: Int?
  /// Seconds a worker thread waits for a request before it ends (a few are always kept), so
  /// the threads a burst of requests made do not stay for ever.
  public var workerIdleTimeout: Double = 30
  /// Worker threads kept however long they wait.
  public var minimumWorkers = 4
  /// Seconds a worker that answered a request waits for the same client's next one (when no
  /// other request waits for a worker, and only until one does) before the loop takes the
  /// connection back; 0 never.
  public var workerLinger = 0.02

  public init() {}

  /// The decoder's limits: `framing`, with room for a streamed body.
  var decoding: HTTPLimits {
    var limits = framing
    limits.maxBodyBytes = max(framing.maxBodyBytes, streamedBodyBytes)
    return limits
  }
}
