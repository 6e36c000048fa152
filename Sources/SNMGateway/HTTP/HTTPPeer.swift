#if canImport(Glibc)
  import Glibc
#endif

/// The client connection a request arrived on, as a handler may watch it (never read or write it:
/// the server owns it).
///
/// ```swift
/// PGInterrupt(deadline: deadline, watchedSocket: request.peer?.socket)   // cancel if it hangs up
/// if peer.hasHungUp { return }                                            // nobody waits any more
/// ```
public struct HTTPPeer: Sendable, Equatable {
  /// The connected socket's descriptor, valid while the handler runs.
  public let socket: Int32

  /// poll(2)'s POLLRDHUP (the peer shut its side down), which Glibc's module leaves out.
  static let readHangUp: Int16 = 0x2000

  /// True when the client has closed its side (or the socket failed): whatever it asked, nobody
  /// waits for the answer. One `poll` that does not wait.
  var hasHungUp: Bool {
    var descriptor = pollfd(fd: socket, events: Self.readHangUp, revents: 0)
    return poll(&descriptor, 1, 0) > 0 && descriptor.revents != 0
  }
}
