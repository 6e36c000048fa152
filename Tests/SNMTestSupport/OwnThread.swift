import Foundation

/// Runs `work` on a thread of its own and waits for its result without holding a thread of
/// Swift's cooperative pool.
///
/// ```swift
/// let failures = await onOwnThread { fuzz(count: 100_000) }   // then #expect(failures.isEmpty)
/// ```
/// The pool has one thread per core (two on the CI machine): a synchronous test body that runs
/// for a minute (a fuzz loop) held one of them, so every async test meanwhile waited for the
/// other, and requests in them outran their deadlines. Expectations belong after the call: the
/// thread runs outside the test's task.
public func onOwnThread<T: Sendable>(_ work: @escaping @Sendable () -> T) async -> T {
  await withCheckedContinuation { continuation in
    let thread = Thread { continuation.resume(returning: work()) }
    thread.stackSize = 16 << 20
    thread.start()
  }
}
