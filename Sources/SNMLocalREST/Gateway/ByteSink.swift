#if canImport(Glibc)
  import Glibc
#endif

/// Bytes written through a pointer into memory of its own: room is made once for a piece whose
/// largest size is known (`reserve`), then its bytes go in without a check each, where an
/// `Array`'s `append` checks uniqueness and capacity on every call (most of what writing a row's
/// JSON cost).
///
/// ```swift
/// var sink = ByteSink()
/// sink.reserve(text.count + 2)
/// sink.append(UInt8(ascii: "\""))
/// sink.append(text)
/// sink.append(UInt8(ascii: "\""))
/// let bytes = sink.array()
/// ```
struct ByteSink: ~Copyable {
  private var base: UnsafeMutablePointer<UInt8>
  private(set) var count = 0
  private var capacity: Int

  init(capacity: Int = 1_024) {
    self.capacity = max(capacity, 16)
    base = .allocate(capacity: self.capacity)
  }

  deinit { base.deallocate() }

  /// Makes room for `more` bytes beyond `count`: the appends up to that many need no check.
  mutating func reserve(_ more: Int) {
    guard count + more > capacity else { return }
    var grown = capacity * 2
    while grown < count + more { grown *= 2 }
    let moved = UnsafeMutablePointer<UInt8>.allocate(capacity: grown)
    moved.update(from: base, count: count)
    base.deallocate()
    base = moved
    capacity = grown
  }

  /// Appends one byte (within room reserved).
  @inline(__always)
  mutating func append(_ byte: UInt8) {
    assert(count < capacity, "ByteSink: append beyond the room reserved")
    base[count] = byte
    count += 1
  }

  /// Appends `bytes` (within room reserved).
  @inline(__always)
  mutating func append(_ bytes: UnsafeRawBufferPointer) {
    guard let source = bytes.baseAddress, bytes.count > 0 else { return }
    assert(count + bytes.count <= capacity, "ByteSink: append beyond the room reserved")
    memcpy(base + count, source, bytes.count)
    count += bytes.count
  }

  /// Appends `text`'s UTF-8 (within room reserved).
  @inline(__always)
  mutating func append(_ text: StaticString) {
    append(UnsafeRawBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
  }

  /// The bytes written so far.
  func withBytes<T>(_ body: (UnsafeRawBufferPointer) throws -> T) rethrows -> T {
    try body(UnsafeRawBufferPointer(start: base, count: count))
  }

  /// The bytes written, as an array (a copy).
  func array() -> [UInt8] {
    withBytes { Array($0) }
  }
}
