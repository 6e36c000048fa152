import SNMWire
import Testing

@testable import SNMShell

/// A subscription's queue: the oldest go past the limit and are counted; a search starts after
/// what was examined; an event is taken by its arrival number.
@Suite struct RealtimeEventQueueTests {
  static func event(_ id: Int) -> RealtimeEvent {
    RealtimeEvent(value: ["type": "INSERT", "record": ["id": .number(JSONNumber(id))]])
  }

  /// What is dropped or taken leaves the bytes counted; the oldest is dropped on request.
  @Test func theBytesCountedAreTheUnreadEvents() {
    var queue = RealtimeEventQueue(limit: 2)
    for order in 1...3 { queue.append(Self.event(order), order: order) }
    let one = Self.event(1).footprint
    #expect(one > 0 && queue.bytes == 2 * one && queue.firstOrder == 2)
    queue.dropOldest()
    #expect(queue.bytes == one && queue.dropped == 2 && queue.firstOrder == 3)
    #expect(Self.id(queue.remove(order: 3)) == 3)
    #expect(queue.bytes == 0 && queue.firstOrder == nil)
  }

  /// A string's bytes count past the 15 kept inline; a flat array counts each slot.
  @Test func aFootprintGrowsWithWhatTheEventHolds() {
    let long = RealtimeEvent(value: ["payload": .string(String(repeating: "x", count: 1000))])
    #expect(long.footprint >= 1000)
    let many = RealtimeEvent(value: .array(Array(repeating: .null, count: 1000)))
    #expect(many.footprint >= 32 * 1000)
  }

  static func id(_ event: RealtimeEvent?) -> Int? {
    event?.value["record"]?["id"]?.intValue
  }

  @Test func theOldestGoPastTheLimitAndAreCounted() {
    var queue = RealtimeEventQueue(limit: 3)
    for order in 1...10 { queue.append(Self.event(order), order: order) }
    #expect(queue.count == 3)
    #expect(queue.dropped == 7)
    #expect(queue.events.map(\.order) == [8, 9, 10])
    #expect(queue.lastOrder == 10)
  }

  @Test func aSearchStartsAfterWhatWasExamined() {
    var queue = RealtimeEventQueue(limit: 100)
    for order in [2, 4, 6, 8] { queue.append(Self.event(order), order: order) }
    var looked: [Int] = []
    let hit = queue.first(after: 4) { event in
      looked.append(Self.id(event) ?? 0)
      return Self.id(event) == 8
    }
    #expect(hit?.order == 8)
    #expect(looked == [6, 8])
    #expect(queue.first(after: 8) { _ in true } == nil)
    #expect(queue.first(after: nil) { _ in true }?.order == 2)
  }

  @Test func anEventIsTakenByItsArrivalNumber() {
    var queue = RealtimeEventQueue(limit: 100)
    for order in 1...4 { queue.append(Self.event(order), order: order) }
    #expect(Self.id(queue.remove(order: 3)) == 3)
    #expect(Self.id(queue.remove(order: 1)) == 1)
    #expect(queue.remove(order: 3) == nil)
    #expect(queue.events.map(\.order) == [2, 4])
    #expect(Self.id(queue.remove(order: 2)) == 2)
    #expect(Self.id(queue.remove(order: 4)) == 4)
    #expect(queue.count == 0)
    #expect(queue.lastOrder == nil)
    queue.append(Self.event(5), order: 5)
    #expect(queue.events.map(\.order) == [5])
  }
}
