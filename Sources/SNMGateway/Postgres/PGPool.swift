import Dispatch
import Synchronization

/// A thread-safe pool of `PGConnection`s to one database as one login role.
///
/// ```swift
/// let pool = PGPool(conninfo: "host=/data/run dbname=postgres user=authenticator", size: 10)
/// let count = try pool.withConnection { try $0.execute("select count(*) from t").scalar }
/// ```
/// Connections open lazily, up to `size`; a caller waits up to `waitLimit` seconds for a free one and
/// then gets `PGError` `.poolTimeout`. A connection that comes back broken or inside a transaction is
/// closed instead of reused, so a failed request can never leak its transaction to the next one;
/// so is one whose backend has grown past `recycleAbove` bytes of its own memory (measured after
/// uses that may have grown it, and every 256th use), so the memory one costly request made a
/// backend keep goes back to the system.
public final class PGPool: Sendable {
  public let conninfo: String
  public let size: Int
  public let waitLimit: Double
  /// A backend's own memory (`PGConnection.backendMemory`) past which its connection is closed
  /// when it comes back; nil keeps every healthy connection.
  public let recycleAbove: Int?
  let capacity: DispatchSemaphore
  let idle = Mutex<[PGConnection]>([])

  public init(
    conninfo: String, size: Int = 10, waitLimit: Double = 10, recycleAbove: Int? = 64 << 20
  ) {
    self.conninfo = conninfo
    self.size = max(1, size)
    self.waitLimit = waitLimit
    self.recycleAbove = recycleAbove
    capacity = DispatchSemaphore(value: max(1, size))
  }

  /// Lends a connection to `body` and takes it back afterwards.
  ///
  /// Throws `PGError` (`.poolTimeout`, `.connection`) or whatever `body` throws.
  public func withConnection<T>(_ body: (PGConnection) throws -> T) throws -> T {
    let connection = try checkOut()
    defer { checkIn(connection) }
    return try body(connection)
  }

  /// Takes a connection out of the pool; give it back with `checkIn`.
  ///
  /// Throws `PGError` `.poolTimeout` after `waitLimit` seconds, `.connection` if opening fails.
  public func checkOut() throws(PGError) -> PGConnection {
    guard capacity.wait(timeout: .now() + waitLimit) == .success else {
      throw PGError(
        kind: .poolTimeout, sqlState: "PGRST003",
        message: "Timed out acquiring connection from connection pool.")
    }
    if let connection = idle.withLock({ $0.popLast() }) { return connection }
    do {
      return try PGConnection(conninfo: conninfo)
    } catch {
      capacity.signal()
      throw error
    }
  }

  /// Returns a connection taken with `checkOut`; broken, mid-transaction and oversized ones are
  /// closed.
  public func checkIn(_ connection: PGConnection) {
    if connection.isReusable && !isOversized(connection) {
      idle.withLock { $0.append(connection) }
    } else {
      connection.close()
    }
    capacity.signal()
  }

  /// Whether the connection's backend holds more than `recycleAbove` bytes (measured only when
  /// `memoryCheckIsDue`).
  func isOversized(_ connection: PGConnection) -> Bool {
    guard let recycleAbove, connection.memoryCheckIsDue(),
      let bytes = connection.backendMemory
    else { return false }
    return bytes > recycleAbove
  }

  /// Closes the idle connections (busy ones close when they come back broken or at exit).
  public func drain() {
    let connections = idle.withLock { idle in
      let all = idle
      idle.removeAll()
      return all
    }
    for connection in connections { connection.close() }
  }
}
