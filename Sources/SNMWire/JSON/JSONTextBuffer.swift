/// Raw room for one value's JSON text, written a byte or a run at a time through a pointer and
/// handed over with one copy (``JSONParser/copyValue(into:indent:depth:)``): an array append per
/// token took more than writing the token.
///
/// ```swift
/// let text = JSONTextBuffer()
/// try parser.copyValue(into: text, indent: nil, depth: 0)
/// output.append(contentsOf: text.written)
/// ```
final class JSONTextBuffer {
  private(set) var base: UnsafeMutablePointer<UInt8>
  private(set) var capacity: Int
  /// The bytes written so far.
  var count = 0

  init(capacity: Int = 4096) {
    self.capacity = max(capacity, 64)
    base = .allocate(capacity: self.capacity)
  }

  deinit {
    base.deallocate()
  }

  /// What was written.
  var written: UnsafeBufferPointer<UInt8> {
    UnsafeBufferPointer(start: base, count: count)
  }

  /// Makes room for at least `needed` bytes in all, keeping the `count` written.
  func grow(toHold needed: Int) {
    guard needed > capacity else { return }
    let larger = max(needed, capacity * 2)
    let moved = UnsafeMutablePointer<UInt8>.allocate(capacity: larger)
    moved.update(from: base, count: count)
    base.deallocate()
    base = moved
    capacity = larger
  }
}
