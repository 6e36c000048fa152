/// One subscription's unread events, oldest first, each with its arrival number (unique and
/// rising across the session), at most `limit` of them: past it the oldest go and are counted
/// in ``dropped``.
///
/// ```swift
/// var queue = RealtimeEventQueue(limit: 10_000)
/// queue.append(event, order: 7)
/// if let hit = queue.first(after: seen, where: { $0.kind == "INSERT" }) { ... }
/// ```
/// `expect event` looks only at what arrived after what it has already examined
/// (`first(after:where:)`), so a long wait costs each event one look, not one per arrival.
struct RealtimeEventQueue: Sendable {
  let limit: Int
  /// Events that went unread because the queue was full.
  private(set) var dropped = 0
  /// The unread events are `storage[head...]`; the taken front is compacted away in bulk.
  private var storage: [(order: Int, event: RealtimeEvent)] = []
  private var head = 0

  init(limit: Int) { self.limit = limit }

  var count: Int { storage.count - head }

  /// The arrival number of the newest event (nil when empty).
  var lastOrder: Int? { head < storage.count ? storage.last?.order : nil }

  /// The unread events, oldest first.
  var events: ArraySlice<(order: Int, event: RealtimeEvent)> { storage[head...] }

  mutating func append(_ event: RealtimeEvent, order: Int) {
    storage.append((order, event))
    if count > limit {
      let excess = count - limit
      dropped += excess
      head += excess
    }
    if head > limit { compact() }
  }

  /// The oldest event that arrived after `order` and `matches`, with its arrival number.
  func first(after order: Int?, where matches: (RealtimeEvent) -> Bool) -> (
    order: Int, event: RealtimeEvent
  )? {
    var index = start(after: order)
    while index < storage.count {
      if matches(storage[index].event) { return storage[index] }
      index += 1
    }
    return nil
  }

  /// Takes the event that arrived as `order` out of the queue.
  mutating func remove(order: Int) -> RealtimeEvent? {
    let index = start(after: order - 1)
    guard index < storage.count, storage[index].order == order else { return nil }
    if index == head {
      let event = storage[index].event
      head += 1
      if head == storage.count { compact() }
      return event
    }
    return storage.remove(at: index).event
  }

  /// The index of the first unread event that arrived after `order` (binary search: the
  /// arrival numbers rise).
  private func start(after order: Int?) -> Int {
    guard let order else { return head }
    var low = head
    var high = storage.count
    while low < high {
      let middle = (low + high) / 2
      if storage[middle].order <= order { low = middle + 1 } else { high = middle }
    }
    return low
  }

  private mutating func compact() {
    storage.removeFirst(head)
    head = 0
  }
}
