import Foundation
import Testing

@testable import SNMNetwork

/// A body's bytes in memory (``ReceivedBytes``): read straight into its room, copied, cut, and
/// handed over as `Data` without a copy.
@Suite struct ReceivedBytesTests {
  @Test func readsKeepWhatTheyFilledAndGrowAsNeeded() {
    let bytes = ReceivedBytes(capacity: 0)
    var expected: [UInt8] = []
    for round in 0..<200 {
      let most = round % 7 == 0 ? 0 : 1 + round * 37 % 5000
      let filled = round % 5 == 0 ? most / 2 : most
      let got = bytes.read(atMost: most) { room in
        #expect(room.count == most)
        for index in 0..<filled { room[index] = UInt8(truncatingIfNeeded: round + index) }
        return filled
      }
      #expect(got == filled)
      expected += (0..<filled).map { UInt8(truncatingIfNeeded: round + $0) }
    }
    // A read that says nothing came (0, or -1 for an error) keeps nothing.
    #expect(bytes.read(atMost: 10) { _ in -1 } == -1)
    #expect(Array(bytes.bytes) == expected)
    #expect(bytes.takeData() == Data(expected))
    #expect(bytes.count == 0 && bytes.takeData().isEmpty)
  }

  /// An answer that holds a session's tokens is read `wiping`: what a cut or emptying leaves past
  /// its end is zeroed (without it, the room after the bytes still holds them), and its bytes stay
  /// as they were through growth and hand-over.
  @Test(arguments: [false, true])
  func aWipingOneLeavesNothingInItsRoom(wiping: Bool) {
    let bytes = ReceivedBytes(capacity: 4, wiping: wiping)
    let text = Array("secret-token-123".utf8)
    for _ in 0..<3 { text.withUnsafeBufferPointer { bytes.append($0) } }
    bytes.removeSubrange(0..<39)
    #expect(Array(bytes.bytes) == Array("token-123".utf8))
    var room: [UInt8] = []
    _ = bytes.read(atMost: 7) { free in
      room = Array(UnsafeRawBufferPointer(free))
      return 0
    }
    #expect(room == (wiping ? Array(repeating: 0, count: 7) : Array("ken-123".utf8)))
    bytes.removeAll()
    _ = bytes.read(atMost: 9) { free in
      room = Array(UnsafeRawBufferPointer(free))
      return 0
    }
    #expect(room == (wiping ? Array(repeating: 0, count: 9) : Array("token-123".utf8)))
    text.withUnsafeBufferPointer { bytes.append($0) }
    #expect(bytes.takeData() == Data(text))
  }

  @Test func appendsRemovesAndEmpties() {
    let bytes = ReceivedBytes(capacity: 4)
    let text = Array("[1,2,3,4,5,6,7,8,9]".utf8)
    text.withUnsafeBufferPointer { bytes.append($0) }
    bytes.removeSubrange(3..<11)
    #expect(Array(bytes.bytes) == Array("[1,6,7,8,9]".utf8))
    bytes.removeSubrange(0..<0)
    bytes.removeSubrange(9..<11)
    #expect(Array(bytes.bytes) == Array("[1,6,7,8,".utf8))
    bytes.removeAll()
    #expect(bytes.count == 0)
    text.withUnsafeBufferPointer { bytes.append(UnsafeBufferPointer(rebasing: $0[..<2])) }
    #expect(bytes.takeData() == Data("[1".utf8))
  }
}
