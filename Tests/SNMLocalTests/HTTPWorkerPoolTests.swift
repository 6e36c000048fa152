import Dispatch
import Synchronization
import Testing

@testable import SNMGateway
@testable import SNMLocal

#if canImport(Glibc)
  import Glibc
#endif

/// The pool's count of idle threads stays true however often their waits run out.
@Suite struct HTTPWorkerPoolTests {
  /// Waits (up to 30 s) until the pool's idle waits ran out `count` times.
  static func waitForIdleTimeouts(_ pool: HTTPWorkerPool, _ count: Int) {
    let deadline = monotonicSeconds() + 30
    while pool.state.withLock({ $0.idleTimeouts }) < count && monotonicSeconds() < deadline {
      usleep(5_000)
    }
  }

  /// A worker kept at the minimum idles past its timeout several times; then two jobs that
  /// each wait for the other both run: the pool made a second thread (it used to count the kept
  /// one idle once per timeout, woke it for both jobs, and ran them one after the other).
  @Test func twoJobsRunAtOnceAfterTheKeptWorkerIdledPastItsTimeout() throws {
    let pool = HTTPWorkerPool(maximum: 4, minimum: 1, idleTimeout: 0.02)
    defer { pool.stop() }
    let first = DispatchSemaphore(value: 0)
    pool.submit { first.signal() }
    #expect(first.wait(timeout: .now() + 30) == .success)
    Self.waitForIdleTimeouts(pool, 5)
    #expect(pool.state.withLock { $0.idleTimeouts } >= 5)
    #expect(pool.count == 1)
    let a = DispatchSemaphore(value: 0)
    let b = DispatchSemaphore(value: 0)
    let met = Mutex(0)
    let done = DispatchSemaphore(value: 0)
    pool.submit {
      a.signal()
      if b.wait(timeout: .now() + 30) == .success { met.withLock { $0 += 1 } }
      done.signal()
    }
    pool.submit {
      b.signal()
      if a.wait(timeout: .now() + 30) == .success { met.withLock { $0 += 1 } }
      done.signal()
    }
    for _ in 0..<2 { #expect(done.wait(timeout: .now() + 70) == .success) }
    #expect(met.withLock { $0 } == 2, "both jobs ran at once")
    #expect(pool.count == 2)
  }

  /// However many times idle waits run out, the idle count is the threads parked: with two
  /// workers kept, it settles at two.
  @Test func theIdleCountIsTheThreadsParked() throws {
    let pool = HTTPWorkerPool(maximum: 4, minimum: 2, idleTimeout: 0.02)
    defer { pool.stop() }
    let started = DispatchSemaphore(value: 0)
    let release = DispatchSemaphore(value: 0)
    for _ in 0..<2 {
      pool.submit {
        started.signal()
        _ = release.wait(timeout: .now() + 30)
      }
    }
    for _ in 0..<2 { #expect(started.wait(timeout: .now() + 30) == .success) }
    release.signal()
    release.signal()
    Self.waitForIdleTimeouts(pool, 10)
    // Between a timeout and parking again a thread is uncounted for a moment: wait for both.
    let deadline = monotonicSeconds() + 30
    var idle = 0
    while monotonicSeconds() < deadline {
      idle = pool.state.withLock { $0.idle }
      if idle == 2 { break }
      usleep(1_000)
    }
    #expect(idle == 2)
    // It never counts more than are parked, however many more waits run out.
    let before = pool.state.withLock { $0.idleTimeouts }
    var most = 0
    while pool.state.withLock({ $0.idleTimeouts }) < before + 10 && monotonicSeconds() < deadline {
      most = max(most, pool.state.withLock { $0.idle })
      usleep(1_000)
    }
    #expect(most <= 2)
  }
}
