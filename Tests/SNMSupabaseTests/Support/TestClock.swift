import Foundation
import Synchronization

/// A clock the test moves by hand: expiry tests never sleep.
final class TestClock: Sendable {
  private let current: Mutex<Date>

  init(_ start: Date = Date(timeIntervalSince1970: 1_800_000_000)) {
    current = Mutex(start)
  }

  var now: Date { current.withLock { $0 } }

  func advance(by seconds: TimeInterval) {
    current.withLock { $0 = $0.addingTimeInterval(seconds) }
  }

  /// The closure to inject as `now`.
  var function: @Sendable () -> Date { { [self] in now } }
}
