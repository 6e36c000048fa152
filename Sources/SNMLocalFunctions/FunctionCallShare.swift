import Synchronization

/// The share of the gateway's workers that function calls may hold at once, all functions
/// together: a call waits on its function (a promise that never settles, a sleep) on a worker,
/// so without a bound a few slow functions called again and again would hold every worker and
/// REST, Auth and Storage would wait behind them. Past the share a call is refused at once (546
/// WORKER_LIMIT, as the edge runtime answers when it has no worker for a request), and its
/// worker is free again.
///
/// ```swift
/// let share = FunctionCallShare(limit: 8)
/// guard let place = share.enter() else { return FunctionErrorResponse.workerLimit }
/// defer { place.leave() }      // or when the answer's streamed body ends
/// ```
final class FunctionCallShare: Sendable {
  /// A call's place in the share, given back once (by `leave`, again harmless).
  final class Place: Sendable {
    let share: FunctionCallShare
    let left = Mutex(false)

    init(_ share: FunctionCallShare) { self.share = share }

    func leave() {
      let first = left.withLock { left in
        defer { left = true }
        return !left
      }
      if first { share.state.withLock { $0.running -= 1 } }
    }

    deinit { leave() }
  }

  struct State {
    var running = 0
    /// Whether a call was refused since the share was last below its limit (one log line per
    /// such stretch, not one per refused call).
    var saturated = false
  }

  enum Entry {
    case admitted(Place)
    /// Refused; `first` when it is the first refusal since the share had room.
    case refused(first: Bool)
  }

  let limit: Int
  let state = Mutex(State())

  init(limit: Int) { self.limit = max(1, limit) }

  /// Calls holding a place now.
  var running: Int { state.withLock { $0.running } }

  /// A place for one call, or a refusal when `limit` calls hold one.
  func enter() -> Entry {
    state.withLock { state -> Entry in
      guard state.running < limit else {
        defer { state.saturated = true }
        return .refused(first: !state.saturated)
      }
      state.running += 1
      state.saturated = false
      return .admitted(Place(self))
    }
  }
}
