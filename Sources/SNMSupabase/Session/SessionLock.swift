import Synchronization

/// A held session lock; `unlock()` releases it (once; later calls do nothing).
///
/// ```swift
/// let lock = try await store.lock(project: url)
/// defer { lock.unlock() }
/// ```
/// Dropping the last reference also releases it, and the operating system releases a file lock
/// when its process ends, so a crashed snm never leaves the lock held.
public final class SessionLock: Sendable {
  private let release: Mutex<(@Sendable () -> Void)?>

  public init(release: @escaping @Sendable () -> Void) {
    self.release = Mutex(release)
  }

  /// Releases the lock.
  public func unlock() {
    let action = release.withLock { current -> (@Sendable () -> Void)? in
      defer { current = nil }
      return current
    }
    action?()
  }

  deinit {
    unlock()
  }
}
