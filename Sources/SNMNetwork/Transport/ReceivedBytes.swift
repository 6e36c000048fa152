import Foundation
import SNMWire

#if canImport(Glibc)
  import Glibc
#endif

/// Bytes of a body held in memory as they arrive, read straight into the room after them (a
/// socket's `recv`, no copy on the way) or copied there from another's buffer (libcurl's); handed
/// over as `Data` without a copy once whole (``ArrivingBody``, ``SpillingBody``).
///
/// ```swift
/// let bytes = ReceivedBytes(capacity: 1 << 16)
/// let got = bytes.read(atMost: 65_536) { room in recv(fd, room.baseAddress, room.count, 0) }
/// bytes.append(piece)              // a copy
/// let body = bytes.takeData()      // its memory, now the Data's; `bytes` is empty again
/// ```
/// Made `wiping` (an answer holding a session's tokens), every byte of its memory is zeroed
/// before it is let go: when it grows, empties, is freed, and when the `Data` taken is.
final class ReceivedBytes {
  private var start: UnsafeMutablePointer<UInt8>?
  private(set) var count = 0
  private var capacity = 0
  let wiping: Bool

  init(capacity: Int, wiping: Bool = false) {
    self.wiping = wiping
    reserve(capacity)
  }

  deinit {
    wipe(from: 0)
    free(start)
  }

  /// Zeroes its memory from `offset` to the end of its room, when ``wiping``.
  private func wipe(from offset: Int) {
    guard wiping, let start, offset < capacity else { return }
    WipedMemory.zero(UnsafeMutableRawBufferPointer(start: start + offset, count: capacity - offset))
  }

  /// Zeroes all it holds and empties it (whether or not it was made ``wiping``).
  func wipe() {
    if let start { WipedMemory.zero(UnsafeMutableRawBufferPointer(start: start, count: capacity)) }
    count = 0
  }

  /// The bytes so far, valid until the next change.
  var bytes: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(start: start, count: count) }

  /// Lets `read` fill at most `most` bytes of the room after the bytes, and keeps what it says it
  /// filled (a count below 1 keeps nothing); returns that count.
  func read<Failure: Error>(
    atMost most: Int, _ read: (UnsafeMutableRawBufferPointer) throws(Failure) -> Int
  ) throws(Failure) -> Int {
    reserve(count + most)
    let got = try read(UnsafeMutableRawBufferPointer(start: start.map { $0 + count }, count: most))
    count += max(0, min(got, most))
    return got
  }

  /// Copies `bytes` after the bytes.
  func append(_ bytes: UnsafeBufferPointer<UInt8>) {
    guard let source = bytes.baseAddress, !bytes.isEmpty else { return }
    reserve(count + bytes.count)
    start.map { ($0 + count).update(from: source, count: bytes.count) }
    count += bytes.count
  }

  /// Empties it, keeping its room.
  func removeAll() {
    wipe(from: 0)
    count = 0
  }

  /// Takes `range` out, moving the bytes after it back.
  func removeSubrange(_ range: Range<Int>) {
    guard let start, !range.isEmpty else { return }
    let after = count - range.upperBound
    (start + range.lowerBound).update(from: start + range.upperBound, count: after)
    count -= range.count
    wipe(from: count)
  }

  /// The bytes as `Data` over this memory, which the `Data` frees; this is left empty.
  func takeData() -> Data {
    guard let taken = start, count > 0 else { return Data() }
    wipe(from: count)
    let data = Data(
      bytesNoCopy: taken, count: count, deallocator: wiping ? WipedMemory.zeroingFree : .free)
    (start, count, capacity) = (nil, 0, 0)
    return data
  }

  /// Room for `total` bytes: at least twice what there was, so that a body growing a read at a
  /// time is moved a few times at most (`realloc`: large blocks are remapped, not copied).
  private func reserve(_ total: Int) {
    guard total > capacity else { return }
    let grown = max(total, capacity * 2, 64)
    if wiping {
      // Moved by hand, so that the memory left behind is zeroed (realloc frees it as it is).
      guard let moved = malloc(grown) else { fatalError("out of memory for an answer") }
      if let start { moved.copyMemory(from: start, byteCount: count) }
      wipe(from: 0)
      free(start)
      start = moved.bindMemory(to: UInt8.self, capacity: grown)
      capacity = grown
      return
    }
    guard let moved = realloc(start, grown) else { fatalError("out of memory for an answer") }
    start = moved.bindMemory(to: UInt8.self, capacity: grown)
    capacity = grown
  }
}
