@preconcurrency import CLibPQ

#if canImport(Glibc)
  import Glibc
#endif

/// Waits for a pipeline's results under a `PGInterrupt`: polls the database socket and the
/// watched one, and cancels the running statement (`PQcancel`) when the deadline passes or the
/// watched socket's peer hangs up. A hang-up cancels only what is still running
/// `interrupt.hangUpGrace` seconds later: a cancel is a connection to the postmaster (a process
/// forked), dearer than the short statement it would stop, and a crowd of clients closing at once
/// would otherwise fork one for each. A server that does not answer a cancel within the grace time
/// has its link cut, so no request waits on it for ever.
///
/// ```swift
/// var waiter = PGResultWaiter(connection: connection, interrupt: interrupt)
/// waiter.begin()                       // after the pipeline was sent
/// waiter.awaitResult()                 // before each PQgetResult
/// waiter.end()
/// if let reason = waiter.cancelled { ... }
/// ```
struct PGResultWaiter {
  let connection: OpaquePointer
  let interrupt: PGInterrupt?
  /// Why the statements were cancelled, once they were.
  private(set) var cancelled: PGInterrupt.Reason?
  private var cancelledAt = 0.0
  /// When the watched socket's peer was seen gone (then it is no longer watched).
  private var hungUpAt: Double?

  init(connection: OpaquePointer, interrupt: PGInterrupt?) {
    self.connection = connection
    self.interrupt = interrupt
  }

  /// Sends what is buffered and, when there is an interrupt, makes reads non-blocking (libpq
  /// reads on in blocking mode while a long message arrives, which would stall the watch).
  func begin() {
    guard interrupt != nil else { return }
    _ = PQflush(connection)
    _ = PQsetnonblocking(connection, 1)
  }

  /// Back to blocking mode for the connection's next user.
  func end() {
    guard interrupt != nil else { return }
    _ = PQsetnonblocking(connection, 0)
  }

  /// Returns when `PQgetResult` will not block: a result (or the end of one command's results)
  /// has arrived, the link failed, or it was cut. Without an interrupt, returns at once
  /// (`PQgetResult` then blocks as usual).
  mutating func awaitResult() {
    guard let interrupt else { return }
    let socket = PQsocket(connection)
    while PQisBusy(connection) == 1 {
      let now = monotonicSeconds()
      var wait = 1.0
      if cancelled != nil {
        wait = cancelledAt + interrupt.grace - now
        if wait <= 0 {
          // The server did not answer the cancel: cut the link (the pool closes it).
          shutdown(socket, Int32(SHUT_RDWR))
          _ = PQconsumeInput(connection)
          return
        }
      } else {
        if let deadline = interrupt.deadline {
          if now >= deadline {
            cancel(.deadline)
            continue
          }
          wait = min(wait, deadline - now)
        }
        if let hungUpAt {
          if now >= hungUpAt + interrupt.hangUpGrace {
            cancel(.peerGone)
            continue
          }
          wait = min(wait, hungUpAt + interrupt.hangUpGrace - now)
        }
      }
      var descriptors = [pollfd(fd: socket, events: Int16(POLLIN), revents: 0)]
      if cancelled == nil, hungUpAt == nil, let peer = interrupt.watchedSocket, peer >= 0 {
        descriptors.append(pollfd(fd: peer, events: HTTPPeer.readHangUp, revents: 0))
      }
      let ready = poll(&descriptors, nfds_t(descriptors.count), Int32(wait * 1000) + 1)
      if ready < 0 && errno != EINTR { return }
      if descriptors.count > 1, descriptors[1].revents != 0 {
        hungUpAt = monotonicSeconds()
        continue
      }
      if descriptors[0].revents != 0 && PQconsumeInput(connection) == 0 { return }
    }
  }

  /// Asks the server to cancel what this connection runs. Synchronous: when it returns, the
  /// backend has the signal, so it cannot fall on the connection's next statement after the
  /// pipeline has been read to its end.
  private mutating func cancel(_ reason: PGInterrupt.Reason) {
    cancelled = reason
    cancelledAt = monotonicSeconds()
    guard let handle = PQgetCancel(connection) else { return }
    var message = [CChar](repeating: 0, count: 256)
    _ = PQcancel(handle, &message, Int32(message.count))
    PQfreeCancel(handle)
  }
}
