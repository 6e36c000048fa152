import Synchronization
import Testing

@testable import SNMLocal
@testable import SNMLocalAuth

/// A clock the test moves by hand.
final class ManualClock: Sendable {
  let time = Mutex(1000.0)
  func advance(_ seconds: Double) { time.withLock { $0 += seconds } }
  var now: @Sendable () -> Double { { [self] in time.withLock { $0 } } }
}

@Suite struct AuthRateLimiterTests {
  /// How many of `count` requests at the same instant get through.
  func admitted(
    _ limiter: AuthRateLimiter, _ kind: AuthRateLimiter.Kind, _ count: Int,
    from client: String = "127.0.0.1"
  ) -> Int {
    (0..<count).filter { _ in (try? limiter.admit(kind, from: client)) != nil }.count
  }

  @Test func aBurstOfThirtyThenOneEveryTwoSeconds() {
    let clock = ManualClock()
    let limiter = AuthRateLimiter(limits: AuthRateLimits(), now: clock.now)
    #expect(admitted(limiter, .token, 60) == 30)
    #expect(throws: AuthFailure.overRateLimit(retryAfter: 2)) {
      try limiter.admit(.token, from: "127.0.0.1")
    }
    clock.advance(0.5)
    #expect(throws: AuthFailure.overRateLimit(retryAfter: 2), "1.5 s, rounded up") {
      try limiter.admit(.token, from: "127.0.0.1")
    }
    clock.advance(1.4)
    #expect(admitted(limiter, .token, 5) == 0)
    clock.advance(0.2)  // 150 per 300 s: one every 2 s
    #expect(admitted(limiter, .token, 5) == 1)
    clock.advance(3600)
    #expect(admitted(limiter, .token, 60) == 30, "the bucket refills to its size, not beyond")
  }

  @Test func eachKindAndEachAddressHasItsOwnBucket() {
    let limiter = AuthRateLimiter(limits: AuthRateLimits(), now: ManualClock().now)
    #expect(admitted(limiter, .token, 40) == 30)
    #expect(admitted(limiter, .signUp, 40) == 30)
    #expect(admitted(limiter, .anonymous, 40) == 30)
    #expect(admitted(limiter, .token, 40, from: "192.0.2.7") == 30)
  }

  @Test func everyLoopbackAddressDrawsFromOneBucket() {
    let limiter = AuthRateLimiter(limits: AuthRateLimits(), now: ManualClock().now)
    #expect(admitted(limiter, .verify, 20, from: "127.0.0.1") == 20)
    #expect(admitted(limiter, .verify, 20, from: "127.0.0.2") == 10)
    #expect(admitted(limiter, .verify, 20, from: "127.255.3.9") == 0)
    #expect(admitted(limiter, .verify, 5, from: "::1") == 0)
    #expect(admitted(limiter, .verify, 40, from: "192.0.2.7") == 30)
  }

  @Test func anonymousSignInsRefillPerHour() {
    let clock = ManualClock()
    var limits = AuthRateLimits()
    limits.anonymousUsers = 60
    let limiter = AuthRateLimiter(limits: limits, now: clock.now)
    #expect(admitted(limiter, .anonymous, 100) == 60, "the bucket holds the hourly number")
    clock.advance(59)
    #expect(throws: AuthFailure.overRateLimit(retryAfter: 1), "one a minute: 1 s to go") {
      try limiter.admit(.anonymous, from: "127.0.0.1")
    }
    #expect(admitted(limiter, .anonymous, 5) == 0)
    clock.advance(2)
    #expect(admitted(limiter, .anonymous, 5) == 1)
  }

  @Test func zeroSwitchesALimitOff() throws {
    var limits = AuthRateLimits()
    try limits.set("token_refresh=0")
    let limiter = AuthRateLimiter(limits: limits, now: ManualClock().now)
    #expect(admitted(limiter, .token, 500) == 500)
    #expect(limiter.count == 0)
  }

  @Test func bucketsOfQuietAddressesAreForgotten() {
    let clock = ManualClock()
    let limiter = AuthRateLimiter(limits: AuthRateLimits(), now: clock.now)
    for client in 0..<AuthRateLimiter.sweepThreshold {
      _ = admitted(limiter, .token, 1, from: "10.0.\(client / 256).\(client % 256)")
    }
    #expect(limiter.count == AuthRateLimiter.sweepThreshold)
    clock.advance(2)  // one token back each: every bucket is full again
    _ = admitted(limiter, .token, 1, from: "192.168.0.1")
    #expect(limiter.count == 1)
  }

  @Test(arguments: ["token_refresh=-1", "nope=3", "token_refresh", "token_refresh=x", "=1"])
  func badChangesAreRefused(_ change: String) {
    var limits = AuthRateLimits()
    #expect(throws: AuthRateLimitError.self) { try limits.set(change) }
    #expect(limits == AuthRateLimits())
  }
}
