/// Holds callers of `wait()` until `open()`; after that `wait()` returns at once.
actor Gate {
  private var isOpen = false
  private var waiters: [CheckedContinuation<Void, Never>] = []
  private(set) var arrivals = 0

  func wait() async {
    arrivals += 1
    if isOpen { return }
    await withCheckedContinuation { waiters.append($0) }
  }

  func open() {
    isOpen = true
    for waiter in waiters { waiter.resume() }
    waiters = []
  }
}

/// Yields until `condition` holds (bounded, so a broken test fails instead of hanging).
func eventually(_ condition: @Sendable () async -> Bool) async -> Bool {
  for _ in 0..<100_000 {
    if await condition() { return true }
    await Task.yield()
  }
  return false
}
