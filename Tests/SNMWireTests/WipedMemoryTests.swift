import Foundation
import Testing

@testable import SNMWire

/// Memory that held a secret, zeroed before it is let go (``WipedMemory``).
@Suite struct WipedMemoryTests {
  @Test func memoryIsZeroedAndArraysAndDataEmptied() {
    let room = UnsafeMutableRawBufferPointer.allocate(byteCount: 16, alignment: 1)
    defer { room.deallocate() }
    room.copyBytes(from: Array("password=hunter2".utf8))
    WipedMemory.zero(room)
    #expect(room.allSatisfy { $0 == 0 })
    var bytes = Array("password=hunter2".utf8)
    WipedMemory.zero(&bytes)
    #expect(bytes.isEmpty)
    var data = Data("refresh_token=abc123".utf8)
    WipedMemory.zero(&data)
    #expect(data.isEmpty)
  }

  @Test func dataTakenHoldsTheBytesAndTheirArrayIsEmptied() {
    var serialized = Array(#"{"email":"a@b.c","password":"hunter2"}"#.utf8)
    let copy = serialized
    let data = WipedMemory.data(taking: &serialized)
    #expect(serialized.isEmpty)
    #expect(data == Data(copy))
    var empty: [UInt8] = []
    #expect(WipedMemory.data(taking: &empty).isEmpty)
  }
}
