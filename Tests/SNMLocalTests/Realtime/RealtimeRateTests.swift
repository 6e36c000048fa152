import Synchronization
import Testing

@testable import SNMLocalRealtime

/// Realtime's rate counter: 5-second buckets, the last 12 averaged, judged at each bucket's end.
@Suite struct RealtimeRateTests {
  /// A clock the test moves.
  final class Clock: Sendable {
    let seconds = Mutex<Double>(1000)
    func advance(_ by: Double) { seconds.withLock { $0 += by } }
    var now: @Sendable () -> Double { { [self] in seconds.withLock { $0 } } }
  }

  @Test func theLimitIsReachedAtTheEndOfABucketWhoseAverageMeetsIt() {
    let clock = Clock()
    let rate = RealtimeRate(limit: 2, clock: clock.now)
    rate.add(10)  // 2 a second over the bucket: enough, but judged at its end
    #expect(!rate.isReached)
    clock.advance(5)
    #expect(rate.isReached)
    #expect(rate.average == 2)
    // The next bucket, empty: the average of the two is 1, under the limit: left.
    clock.advance(5)
    #expect(!rate.isReached)
    #expect(rate.average == 1)
  }

  @Test func theAverageIsOverTheLastTwelveBucketsAndAnIdleMinuteClearsIt() {
    let clock = Clock()
    let rate = RealtimeRate(limit: 1, clock: clock.now)
    rate.add(60)
    clock.advance(5)
    #expect(rate.average == 12)
    clock.advance(55)  // eleven more empty buckets: the first still counted
    #expect(rate.average == 1)
    #expect(rate.isReached)
    clock.advance(5)  // the first bucket is out
    #expect(rate.average == 0)
    clock.advance(3600)
    #expect(!rate.add(4))
    clock.advance(5)
    // An hour idle kept twelve empty buckets, not a bucket an hour.
    #expect(rate.average == Double(4) / Double(12) / 5)
  }
}
