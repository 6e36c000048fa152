@preconcurrency import CLibPQ

#if canImport(Glibc)
  import Glibc
#endif

/// LISTEN/NOTIFY on a dedicated connection (the REST gateway reloads its schema cache on
/// `NOTIFY pgrst, 'reload schema'`, as PostgREST does).
extension PGConnection {
  /// One notification: its channel and payload.
  public struct Notification: Sendable, Equatable {
    public var channel: String
    public var payload: String
  }

  /// Starts listening on `channel` (quoted as an identifier). Throws `PGError`.
  public func listen(_ channel: String) throws(PGError) {
    _ = try execute("LISTEN " + SQLText.identifier(channel))
  }

  /// The next notification, waiting up to `timeout` seconds; nil when none came.
  ///
  /// Holds the connection while it waits: use a connection of its own, not a pooled one.
  /// Throws `PGError` `.connection` when the link breaks.
  public func nextNotification(timeout: Double) throws(PGError) -> Notification? {
    try handle.withLock { connection throws(PGError) -> Notification? in
      guard let connection else { throw Self.closedError }
      if let pending = Self.takeNotification(connection) { return pending }
      var descriptor = pollfd(fd: PQsocket(connection), events: Int16(POLLIN), revents: 0)
      let ready = poll(&descriptor, 1, Int32(max(0, timeout) * 1000))
      if ready < 0 && errno != EINTR {
        throw PGError(kind: .connection, sqlState: "08006", message: "poll failed: \(errno)")
      }
      if ready > 0 && PQconsumeInput(connection) == 0 {
        throw PGError(
          kind: .connection, sqlState: "08006", message: Self.trimmed(PQerrorMessage(connection)))
      }
      return Self.takeNotification(connection)
    }
  }

  private static func takeNotification(_ connection: OpaquePointer) -> Notification? {
    _ = PQconsumeInput(connection)
    guard let raw = PQnotifies(connection) else { return nil }
    defer { PQfreemem(raw) }
    let channel = raw.pointee.relname.map { String(cString: $0) } ?? ""
    let payload = raw.pointee.extra.map { String(cString: $0) } ?? ""
    return Notification(channel: channel, payload: payload)
  }
}
