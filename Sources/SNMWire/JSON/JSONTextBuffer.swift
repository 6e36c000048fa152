/// Raw room for text written a byte or a run at a time through a pointer: one value's JSON text
/// (``JSONRowWriter/copyValue(_:into:indent:depth:around:)``), or the shell's output chunk, which rows are
/// written straight into. An array append per token took more than writing the token.
///
/// ```swift
/// let text = JSONTextBuffer()
/// try JSONRowWriter.copyValue(&parser, into: text, indent: nil, depth: 0)
/// output.append(contentsOf: text.written)
/// ```
///
/// Its fields are not checked for exclusive access at run time: a buffer is written by one
/// writer at a time, and the check (a call at each byte written) cost more than the writing.
package final class JSONTextBuffer {
  @exclusivity(unchecked) package private(set) var base: UnsafeMutablePointer<UInt8>
  @exclusivity(unchecked) package private(set) var capacity: Int
  /// The bytes written so far.
  @exclusivity(unchecked) package var count = 0

  package init(capacity: Int = 4096) {
    self.capacity = max(capacity, 64)
    base = .allocate(capacity: self.capacity)
  }

  deinit {
    base.deallocate()
  }

  /// What was written.
  package var written: UnsafeBufferPointer<UInt8> {
    UnsafeBufferPointer(start: base, count: count)
  }

  /// Makes room for at least `needed` bytes in all, keeping the `count` written.
  package func grow(toHold needed: Int) {
    guard needed > capacity else { return }
    let larger = max(needed, capacity * 2)
    let moved = UnsafeMutablePointer<UInt8>.allocate(capacity: larger)
    moved.update(from: base, count: count)
    base.deallocate()
    base = moved
    capacity = larger
  }

  /// Writes `byte` after what was written.
  @inlinable @inline(__always)
  package func append(_ byte: UInt8) {
    if count == capacity { grow(toHold: count + 1) }
    base[count] = byte
    count += 1
  }

  /// Writes `bytes` after what was written.
  @inlinable @inline(__always)
  package func append(_ bytes: UnsafeBufferPointer<UInt8>) {
    guard let source = bytes.baseAddress else { return }
    if count + bytes.count > capacity { grow(toHold: count + bytes.count) }
    (base + count).update(from: source, count: bytes.count)
    count += bytes.count
  }
}
