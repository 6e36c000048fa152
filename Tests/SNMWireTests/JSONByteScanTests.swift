import SNMTestSupport
import Testing

@testable import SNMWire

/// The eight-bytes-at-a-time scan must stop exactly where a byte-by-byte one does.
@Suite struct JSONByteScanTests {
  static func naive(_ bytes: [UInt8], from start: Int) -> Int {
    var index = start
    while index < bytes.count {
      let byte = bytes[index]
      if byte == 0x22 || byte == 0x5C || byte < 0x20 || byte >= 0x80 { return index }
      index += 1
    }
    return index
  }

  @Test func stopsWhereAByteByByteScanStops() {
    var generator = SeededGenerator(seed: 0xB17E)
    // Mostly plain text, now and then one byte that must stop the scan (or its neighbours).
    let stoppers: [UInt8] = [
      0x22, 0x5C, 0x00, 0x1F, 0x20, 0x21, 0x5B, 0x5D, 0x7F, 0x80, 0xC3, 0xFF,
    ]
    var stopsChecked = 0
    for _ in 0..<5000 {
      let length = Int(generator.next() % 40)
      var bytes = (0..<length).map { _ in UInt8(0x23 + generator.next() % 0x38) }
      for _ in 0..<Int(generator.next() % 3) where length > 0 {
        bytes[Int(generator.next() % UInt64(length))] =
          stoppers[Int(generator.next() % UInt64(stoppers.count))]
      }
      let start = length == 0 ? 0 : Int(generator.next() % UInt64(length))
      let expected = Self.naive(bytes, from: start)
      let found = bytes.withUnsafeBufferPointer { JSONByteScan.plainRun($0, from: start) }
      #expect(found == expected, "\(bytes) from \(start)")
      if expected < length { stopsChecked += 1 }
    }
    #expect(stopsChecked > 1000)
  }

  @Test func everyStoppingByteStopsAtEveryPosition() {
    for byte in 0...255 {
      let stops = byte == 0x22 || byte == 0x5C || byte < 0x20 || byte >= 0x80
      for position in 0..<17 {
        var bytes = [UInt8](repeating: UInt8(ascii: "a"), count: 17)
        bytes[position] = UInt8(byte)
        let found = bytes.withUnsafeBufferPointer { JSONByteScan.plainRun($0, from: 0) }
        #expect(found == (stops ? position : 17), "byte \(byte) at \(position)")
      }
    }
  }
}
