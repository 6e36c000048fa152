/// The client connection a request arrived on, as a handler may watch it (never read or write it:
/// the server owns it).
///
/// ```swift
/// PGInterrupt(deadline: deadline, watchedSocket: request.peer?.socket)   // cancel if it hangs up
/// ```
public struct HTTPPeer: Sendable, Equatable {
  /// The connected socket's descriptor, valid while the handler runs.
  public let socket: Int32
}
