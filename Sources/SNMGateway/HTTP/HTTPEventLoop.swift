import CLibUV

#if canImport(Glibc)
  import Glibc
#endif

/// What the event loop thread owns: the libuv loop and handles, and the connections it reads.
/// Only that thread touches it (through `HTTPServer.loop`, a lock never contended), so the libuv
/// handles' pointers never cross threads: hence unchecked Sendable.
struct HTTPEventLoop: @unchecked Sendable {
  var handle: UnsafeMutablePointer<uv_loop_t>?
  var listener: Int32 = -1
  var listenerPoll: UnsafeMutablePointer<uv_poll_t>?
  var wake: UnsafeMutablePointer<uv_async_t>?
  var sweep: UnsafeMutablePointer<uv_timer_t>?
  /// Connections served at once: `limits.maxConnections`, or fewer when the process may not
  /// open that many files.
  var capacity = 0
  /// Every open connection, by socket, whoever owns it now.
  var connections: [Int32: Entry] = [:]
  /// The loop's read buffer, shared by all connections.
  var scratch = [UInt8](repeating: 0, count: 65_536)
  /// The server stopped: the listener is closed and connections close as they come back.
  var closing = false

  /// One connection as the loop sees it.
  struct Entry {
    let connection: HTTPConnection
    let poll: UnsafeMutablePointer<uv_poll_t>
    /// A worker answers a request on it: the loop neither reads nor closes it.
    var onWorker = false
    /// Since when it has waited for a request with nothing of one received; nil while one
    /// arrives or is answered.
    var idleSince: Double?
    /// When the request under way began to arrive (for a body streaming past the request
    /// timeout, when its current window began).
    var requestStart: Double?
    /// The reader's `arrived` when that window began.
    var windowArrived = 0
    /// The reader's `ended` when the loop last took the connection back (a streamed body still
    /// arriving when it is the same is the one whose window runs).
    var requestsEnded = 0
    /// The end of the last answer (or the accept), for the idle timeout.
    var lastActivity: Double
    /// Sending the rest of an answer (`HTTPConnection.unsent`): when the client last took some,
    /// for the write timeout.
    var sendingSince: Double?
    /// Closing after an error answer: what the client still sends is read and dropped until
    /// then (so the answer is not lost to a reset), up to 1 MiB.
    var lingerUntil: Double?
    var lingered = 0
  }

  /// The connection that has kept the server's pace the least, for a new connection to take its
  /// place at capacity: a request head arriving since before `since`, a body that since its
  /// request began (before `since`) brought fewer than `minimumRate` bytes a second, or an answer
  /// its client has taken nothing of since before `since`; the one stalled since the earliest.
  /// `answering` is true for an answer (it is cut without a 408). Nil when none has.
  static func stalled(
    _ connections: [Int32: Entry], since: Double, now: Double, minimumRate: Double
  ) -> (socket: Int32, answering: Bool)? {
    var stalled: (socket: Int32, answering: Bool, since: Double)?
    for (socket, entry) in connections where !entry.onWorker && entry.lingerUntil == nil {
      if let sending = entry.sendingSince {
        if sending <= since && sending < stalled?.since ?? .infinity {
          stalled = (socket, true, sending)
        }
        continue
      }
      guard let start = entry.requestStart, entry.idleSince == nil, start <= since,
        start < stalled?.since ?? .infinity
      else { continue }
      let (head, arrived) = entry.connection.reader.withLock {
        ($0.isReadingHead, $0.arrived)
      }
      let rate = Double(arrived - entry.windowArrived) / max(now - start, 1e-3)
      guard head || rate < minimumRate else { continue }
      stalled = (socket, false, start)
    }
    return stalled.map { ($0.socket, $0.answering) }
  }

  /// The socket of the connection idle the longest with nothing of a request received nor
  /// waiting to be read (bytes in the socket mean one has begun to arrive); nil when none is.
  static func longestIdle(_ connections: [Int32: Entry]) -> Int32? {
    let idle = connections.compactMap { socket, entry -> (Int32, Double)? in
      guard !entry.onWorker, entry.lingerUntil == nil, let since = entry.idleSince else {
        return nil
      }
      return (socket, since)
    }
    for (socket, _) in idle.sorted(by: { $0.1 < $1.1 }) {
      var pending: Int32 = 0
      if ioctl(socket, UInt(FIONREAD), &pending) == 0 && pending > 0 { continue }
      return socket
    }
    return nil
  }
}
