import Synchronization

/// Tasks waiting for something to change: each reads ``generation`` before it looks, and waits
/// after it until ``wake()`` or its deadline, whichever comes first; a wake between the look and
/// the wait is not lost.
///
/// ```swift
/// let seen = waiters.generation
/// if !state.withLock({ $0.ready }) { await waiters.wait(after: seen, until: deadline) }
/// ```
final class AsyncWaiters: Sendable {
  private struct State {
    var generation = 0
    var waiting: [Int: CheckedContinuation<Void, Never>] = [:]
    var nextID = 0
  }

  private let state = Mutex(State())

  /// How many wakes there have been.
  var generation: Int { state.withLock { $0.generation } }

  /// Wakes every waiter.
  func wake() {
    let waiting = state.withLock { state in
      state.generation += 1
      defer { state.waiting = [:] }
      return Array(state.waiting.values)
    }
    for continuation in waiting { continuation.resume() }
  }

  /// Returns at once when there was a wake after `seen`, else at the next ``wake()`` or at
  /// `deadline`.
  func wait(after seen: Int, until deadline: ContinuousClock.Instant) async {
    let id = state.withLock { state in
      defer { state.nextID += 1 }
      return state.nextID
    }
    let timer = Task {
      try? await Task.sleep(until: deadline, clock: .continuous)
      self.resume(id)
    }
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      let woken = state.withLock { state in
        guard state.generation == seen else { return true }
        state.waiting[id] = continuation
        return false
      }
      if woken { continuation.resume() }
    }
    timer.cancel()
  }

  private func resume(_ id: Int) {
    state.withLock { $0.waiting.removeValue(forKey: id) }?.resume()
  }
}
