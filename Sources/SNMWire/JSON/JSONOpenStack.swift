/// Which of the containers open around a value are objects, innermost last: the first 64 levels
/// as bits of one word (a row's text is written without allocating), deeper ones in an array.
///
/// ```swift
/// var open = JSONOpenStack()
/// open.append(true)    // {
/// open.append(false)   // [
/// open.last            // false
/// open.removeLast()
/// ```
struct JSONOpenStack {
  private var low: UInt64 = 0
  private var deeper: [Bool] = []
  /// The containers open.
  private(set) var count = 0

  /// Whether the innermost open container is an object; nil when none is open.
  var last: Bool? {
    guard count > 0 else { return nil }
    guard count > 64 else { return low >> UInt64(count - 1) & 1 == 1 }
    return deeper.last
  }

  mutating func append(_ isObject: Bool) {
    if count < 64 {
      let bit: UInt64 = 1 << UInt64(count)
      low = isObject ? low | bit : low & ~bit
    } else {
      deeper.append(isObject)
    }
    count += 1
  }

  /// Closes the innermost container (one must be open).
  mutating func removeLast() {
    count -= 1
    if count >= 64 { deeper.removeLast() }
  }
}
