import Synchronization

/// The first SIGINT or SIGTERM heard while ``InterruptSignals/watching(_:)`` runs its body.
public final class HeardSignal: Sendable {
  private let value = Atomic<Int32>(0)

  /// The signal, once one came.
  public var signal: Int32? {
    let signal = value.load(ordering: .acquiring)
    return signal == 0 ? nil : signal
  }

  func record(_ signal: Int32) {
    _ = value.compareExchange(expected: 0, desired: signal, ordering: .acquiringAndReleasing)
  }
}
