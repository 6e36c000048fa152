import Synchronization

/// The memory the server gives to streamed answers their clients do not read at once, and the
/// workers it lets wait for such clients.
///
/// A streamed answer (rows from a database cursor) is produced on a worker. What the client does
/// not take at once is kept, up to `perAnswer` bytes within `total` across the server, while the
/// producer runs on: an answer that ends within them goes to the event loop to send as the client
/// reads, and the worker (and the database connection behind the producer) is free. Past them a
/// worker waits for its client only while fewer than `waiters` do; otherwise the answer is cut.
///
/// ```swift
/// let held = HTTPHeldAnswers(perAnswer: 16 << 20, total: 256 << 20, waiters: 8)
/// let reservation = held.reservation()
/// reservation.hold(bytes: 1 << 20)   // true: within both bounds
/// held.enterWaiting()                // a worker may wait for its client (false: cut instead)
/// ```
final class HTTPHeldAnswers: Sendable {
  let perAnswer: Int
  let total: Int
  let waiters: Int
  let state = Mutex<(held: Int, waiting: Int)>((0, 0))

  init(perAnswer: Int, total: Int, waiters: Int) {
    self.perAnswer = perAnswer
    self.total = total
    self.waiters = waiters
  }

  /// Bytes held for unread answers across the server now.
  var held: Int { state.withLock { $0.held } }

  /// A new answer's share, empty; what it holds goes back when it is released.
  func reservation() -> Reservation { Reservation(self) }

  /// Takes a place among the workers waiting for a client; false when `waiters` already do.
  func enterWaiting() -> Bool {
    state.withLock { state in
      guard state.waiting < waiters else { return false }
      state.waiting += 1
      return true
    }
  }

  func leaveWaiting() {
    state.withLock { $0.waiting -= 1 }
  }

  /// Raises a reservation from `from` to `to` bytes if both bounds allow it.
  func grow(from: Int, to: Int) -> Bool {
    guard to <= perAnswer else { return false }
    return state.withLock { state in
      guard state.held - from + to <= total else { return false }
      state.held += to - from
      return true
    }
  }

  func give(_ bytes: Int) {
    state.withLock { $0.held -= bytes }
  }
}

extension HTTPHeldAnswers {
  /// What one unread answer holds; given back when it is released (the answer sent, or its
  /// connection closed).
  final class Reservation: Sendable {
    let owner: HTTPHeldAnswers
    let bytes = Mutex(0)

    init(_ owner: HTTPHeldAnswers) {
      self.owner = owner
    }

    /// Whether `count` bytes may be held (the reservation grows to them when they may).
    func hold(bytes count: Int) -> Bool {
      bytes.withLock { held in
        guard count > held else { return true }
        guard owner.grow(from: held, to: count) else { return false }
        held = count
        return true
      }
    }

    deinit {
      owner.give(bytes.withLock { $0 })
    }
  }
}
