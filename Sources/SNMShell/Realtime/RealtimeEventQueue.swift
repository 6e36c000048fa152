/// One subscription's unread events, oldest first, each with its arrival number (unique and
/// rising across the session) and its footprint (``RealtimeEvent/footprint``), at most `limit`
/// of them: past it the oldest go and are counted in ``dropped``. The session drops more by
/// footprint across its subscriptions (``dropOldest()``).
///
/// ```swift
/// var queue = RealtimeEventQueue(limit: 10_000)
/// queue.append(event, order: 7)
/// if let hit = queue.first(after: seen, where: { $0.kind == "INSERT" }) { ... }
/// ```
/// `expect event` looks only at what arrived after what it has already examined
/// (`first(after:where:)`), so a long wait costs each event one look, not one per arrival.
/// An event dropped or taken is released at once (its slot emptied), not when the front is
/// compacted, so what the queue holds is what ``bytes`` counts.
struct RealtimeEventQueue: Sendable {
  let limit: Int
  /// Events that went unread because the queue was full.
  private(set) var dropped = 0
  /// The unread events' footprints together.
  private(set) var bytes = 0
  /// The unread events are `storage[head...]`; the taken front is emptied at once and
  /// compacted away in bulk.
  private var storage: [(order: Int, event: RealtimeEvent, bytes: Int)] = []
  private var head = 0

  init(limit: Int) { self.limit = limit }

  var count: Int { storage.count - head }

  /// The arrival number of the newest event (nil when empty).
  var lastOrder: Int? { head < storage.count ? storage.last?.order : nil }

  /// The arrival number of the oldest event (nil when empty).
  var firstOrder: Int? { head < storage.count ? storage[head].order : nil }

  /// The unread events, oldest first.
  var events: [(order: Int, event: RealtimeEvent)] {
    storage[head...].map { ($0.order, $0.event) }
  }

  mutating func append(_ event: RealtimeEvent, order: Int) {
    let size = event.footprint
    storage.append((order, event, size))
    bytes += size
    while count > limit { dropOldest() }
  }

  /// Drops the oldest unread event, counting it in ``dropped``.
  mutating func dropOldest() {
    guard head < storage.count else { return }
    dropped += 1
    takeHead()
  }

  /// The oldest event that arrived after `order` and `matches`, with its arrival number.
  func first(after order: Int?, where matches: (RealtimeEvent) -> Bool) -> (
    order: Int, event: RealtimeEvent
  )? {
    var index = start(after: order)
    while index < storage.count {
      if matches(storage[index].event) { return (storage[index].order, storage[index].event) }
      index += 1
    }
    return nil
  }

  /// Takes the event that arrived as `order` out of the queue.
  mutating func remove(order: Int) -> RealtimeEvent? {
    let index = start(after: order - 1)
    guard index < storage.count, storage[index].order == order else { return nil }
    let event = storage[index].event
    if index == head {
      takeHead()
      return event
    }
    bytes -= storage[index].bytes
    storage.remove(at: index)
    return event
  }

  /// Empties the front slot (its event released now) and moves past it.
  private mutating func takeHead() {
    bytes -= storage[head].bytes
    storage[head] = (storage[head].order, RealtimeEvent(value: .null), 0)
    head += 1
    if head == storage.count || head >= 1024 && head * 2 >= storage.count {
      storage.removeFirst(head)
      head = 0
    }
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
}
