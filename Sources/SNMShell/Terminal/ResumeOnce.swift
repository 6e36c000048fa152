import Synchronization

/// Hands one value to a waiting continuation, whichever of several racers comes first.
///
/// ```swift
/// let once = ResumeOnce<Outcome>()
/// await withCheckedContinuation { continuation in
///   once.attach(continuation)
///   Task { once.resume(await work()) }   // the request finishing
/// }                                      // ... or a signal: once.resume(.interrupted)
/// ```
/// A value that arrives before the continuation is kept and handed over on `attach`.
final class ResumeOnce<Value: Sendable>: Sendable {
  private struct State {
    var continuation: CheckedContinuation<Value, Never>?
    var value: Value?
    var done = false
  }

  private let state = Mutex(State())

  init() {}

  /// Sets the continuation; resumes it at once when a value already arrived.
  func attach(_ continuation: CheckedContinuation<Value, Never>) {
    let ready: Value? = state.withLock { state in
      guard let value = state.value, !state.done else {
        state.continuation = continuation
        return nil
      }
      state.done = true
      return value
    }
    if let ready { continuation.resume(returning: ready) }
  }

  /// Offers `value`; only the first offer counts.
  func resume(_ value: Value) {
    let continuation: CheckedContinuation<Value, Never>? = state.withLock { state in
      guard !state.done, state.value == nil else { return nil }
      guard let continuation = state.continuation else {
        state.value = value
        return nil
      }
      state.done = true
      state.continuation = nil
      return continuation
    }
    continuation?.resume(returning: value)
  }
}
