import SNMGateway
import Synchronization

/// The project's sockets and joins as Realtime limits them: the users (sockets that joined a
/// channel, counted until they close) and the joins a second. The handshake is refused while
/// either limit is reached (429); a join checks both before it is counted.
final class RealtimeAdmission: Sendable {
  let concurrentUsers: Int
  let joins: RealtimeRate
  private let users = Mutex<Set<ObjectIdentifier>>([])

  init(limits: RealtimeLimits, clock: @escaping @Sendable () -> Double = monotonicSeconds) {
    concurrentUsers = limits.concurrentUsers
    joins = RealtimeRate(limit: limits.joinsPerSecond, clock: clock)
  }

  /// Why a handshake is refused now (Realtime's 429 messages), or nil.
  func handshakeRefusal() -> String? {
    if users.withLock({ $0.count }) >= concurrentUsers { return "Too many connected users" }
    if joins.isReached { return "Too many joins per second" }
    return nil
  }

  enum JoinRefusal: Error {
    /// `ConnectionRateLimitReached: Too many connected users`
    case users
    /// `ClientJoinRateLimitReached: Too many joins per second` (the socket is closed after)
    case joins

    var reason: String {
      switch self {
      case .users: "ConnectionRateLimitReached: Too many connected users"
      case .joins: "ClientJoinRateLimitReached: Too many joins per second"
      }
    }
  }

  /// Checks a join of `socket` against both limits, in Realtime's order, and counts it.
  func checkJoin(_ socket: RealtimeSocket) -> JoinRefusal? {
    let id = ObjectIdentifier(socket)
    let full = users.withLock { !$0.contains(id) && $0.count >= concurrentUsers }
    if full { return .users }
    if joins.isReached { return .joins }
    joins.add()
    return nil
  }

  /// Counts `socket` as a user (it joined a channel).
  func joined(_ socket: RealtimeSocket) {
    _ = users.withLock { $0.insert(ObjectIdentifier(socket)) }
  }

  /// A socket gone: no longer a user.
  func closed(_ socket: RealtimeSocket) {
    _ = users.withLock { $0.remove(ObjectIdentifier(socket)) }
  }

  var userCount: Int { users.withLock { $0.count } }
}
