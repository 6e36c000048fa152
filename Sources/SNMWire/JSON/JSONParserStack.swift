/// A growable stack whose top elements can be moved out into an exactly sized array, without the
/// retain/release pairs a copy out of an `Array` followed by `removeSubrange` costs.
final class JSONParserStack<Element> {
  private var storage: UnsafeMutablePointer<Element>
  private var capacity: Int
  private(set) var count = 0

  init(capacity: Int = 64) {
    self.capacity = max(capacity, 1)
    storage = .allocate(capacity: self.capacity)
  }

  deinit {
    storage.deinitialize(count: count)
    storage.deallocate()
  }

  func push(_ element: consuming Element) {
    if count == capacity {
      let larger = UnsafeMutablePointer<Element>.allocate(capacity: capacity * 2)
      larger.moveInitialize(from: storage, count: count)
      storage.deallocate()
      storage = larger
      capacity *= 2
    }
    (storage + count).initialize(to: element)
    count += 1
  }

  /// Moves the elements from `start` to the top into a new array, leaving `start` elements.
  func popArray(from start: Int) -> [Element] {
    let moved = count - start
    let result = [Element](unsafeUninitializedCapacity: moved) { buffer, initialized in
      if let base = buffer.baseAddress {
        base.moveInitialize(from: storage + start, count: moved)
      }
      initialized = moved
    }
    count = start
    return result
  }

  /// Removes the elements from `start` to the top.
  func drop(from start: Int) {
    (storage + start).deinitialize(count: count - start)
    count = start
  }

  /// `true` when the elements from `start` to the top equal `other`.
  func topEquals(from start: Int, _ other: [Element]) -> Bool where Element: Equatable {
    guard count - start == other.count else { return false }
    for index in other.indices where storage[start + index] != other[index] {
      return false
    }
    return true
  }
}
