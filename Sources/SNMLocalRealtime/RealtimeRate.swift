import SNMGateway
import Synchronization

/// A rate as Realtime's RateCounter keeps it: events counted in 5-second buckets, the last 12
/// kept (a minute). At the end of each bucket the average a second over the kept buckets is
/// taken: at or over `limit` the limit is reached, and it stays reached until an average is
/// under it again. Between bucket ends the verdict does not change, as in Realtime.
package final class RealtimeRate: Sendable {
  let limit: Int
  let bucketSeconds: Double
  let clock: @Sendable () -> Double
  private let state: Mutex<State>

  struct State {
    var bucketStart: Double
    var current = 0
    var buckets: [Int] = []
    var reached = false
    var average = 0.0
  }

  static let keptBuckets = 12

  package init(
    limit: Int, bucketSeconds: Double = 5,
    clock: @escaping @Sendable () -> Double = monotonicSeconds
  ) {
    self.limit = limit
    self.bucketSeconds = bucketSeconds
    self.clock = clock
    state = Mutex(State(bucketStart: clock()))
  }

  /// Counts `count` events now; true when the limit is reached.
  @discardableResult
  package func add(_ count: Int = 1) -> Bool {
    let now = clock()
    return state.withLock { state in
      roll(&state, now: now)
      state.current += count
      return state.reached
    }
  }

  /// The limit is reached (as of the last bucket's end).
  package var isReached: Bool {
    let now = clock()
    return state.withLock { state in
      roll(&state, now: now)
      return state.reached
    }
  }

  /// The average a second as of the last bucket's end.
  package var average: Double {
    let now = clock()
    return state.withLock { state in
      roll(&state, now: now)
      return state.average
    }
  }

  /// Closes the buckets that ended before `now`.
  private func roll(_ state: inout State, now: Double) {
    var ended = 0
    while now >= state.bucketStart + bucketSeconds, ended <= Self.keptBuckets {
      state.buckets.insert(state.current, at: 0)
      if state.buckets.count > Self.keptBuckets { state.buckets.removeLast() }
      state.current = 0
      state.bucketStart += bucketSeconds
      ended += 1
      state.average =
        Double(state.buckets.reduce(0, +)) / Double(state.buckets.count) / bucketSeconds
      state.reached = state.average >= Double(limit)
    }
    // Idle for more than the kept minute: every kept bucket is empty.
    if now >= state.bucketStart + bucketSeconds {
      let skipped = ((now - state.bucketStart) / bucketSeconds).rounded(.down)
      state.bucketStart += skipped * bucketSeconds
    }
  }
}
