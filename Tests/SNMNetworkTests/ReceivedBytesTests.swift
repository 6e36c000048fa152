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
