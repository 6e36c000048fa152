import Synchronization

/// Connections kept open between requests, at most `maximumPerKey` for each origin: what both
/// transports reuse (plain sockets, curl handles).
///
/// ```swift
/// let kept = KeptConnections<PlainHTTPConnection>(maximumPerKey: 6)
/// let connection = kept.take("127.0.0.1:54321") ?? open()
/// kept.keep(connection, key: "127.0.0.1:54321")?.close()   // one too many: closed
/// ```
final class KeptConnections<Connection: Sendable>: Sendable {
  private let idle = Mutex<[String: [Connection]]>([:])
  let maximumPerKey: Int

  init(maximumPerKey: Int) {
    self.maximumPerKey = max(1, maximumPerKey)
  }

  /// A kept connection to `key`, taken out (the last one kept), or nil.
  func take(_ key: String) -> Connection? {
    idle.withLock { $0[key]?.popLast() }
  }

  /// Keeps `connection` for the next request to `key`; hands it back when enough are kept (the
  /// caller closes it).
  func keep(_ connection: Connection, key: String) -> Connection? {
    idle.withLock { idle in
      var list = idle[key] ?? []
      guard list.count < maximumPerKey else { return connection }
      list.append(connection)
      idle[key] = list
      return nil
    }
  }
}
