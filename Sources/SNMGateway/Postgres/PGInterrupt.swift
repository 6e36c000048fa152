/// When a pipeline's statements must stop early: a deadline, and a socket whose peer hanging up
/// means nobody waits for the answer any more (the HTTP client of the request).
///
/// ```swift
/// let interrupt = PGInterrupt(deadline: monotonicSeconds() + 60, watchedSocket: clientSocket)
/// let results = try connection.pipeline(statements, interrupt: interrupt)
/// ```
/// While it waits for results the connection polls the database socket and the watched one;
/// when the deadline passes or the peer hangs up it asks the server to cancel (`PQcancel`), so a
/// backend never keeps running for a client that left. The pipeline then throws `PGError` of
/// kind `.interrupted`.
public struct PGInterrupt: Sendable, Equatable {
  /// Why the statements were cancelled.
  public enum Reason: Sendable, Equatable {
    /// The deadline passed.
    case deadline
    /// The watched socket's peer closed its side.
    case peerGone
  }

  /// A `monotonicSeconds()` time, or nil for none.
  public var deadline: Double?
  /// A socket whose hang-up cancels the statements (polled, never read), or nil.
  public var watchedSocket: Int32?
  /// Seconds to wait for the server to answer a cancel before the link is cut.
  public var grace: Double = 5
  /// Seconds the statements may still run after the watched socket's peer hung up before they
  /// are cancelled (most finish sooner, and a cancel costs the server a process).
  public var hangUpGrace: Double = 0.05

  public init(deadline: Double? = nil, watchedSocket: Int32? = nil) {
    self.deadline = deadline
    self.watchedSocket = watchedSocket
  }
}
