/// A key of an object being read, as the parser compares it with the object's keys before it (a
/// key written twice is an error): a plain key of up to 16 ASCII bytes (most keys) as its bytes,
/// packed in two words with its length, compared with no String made; any other key (escapes, a
/// byte that is not ASCII, more than 16 bytes) as its decoded String.
///
/// ```swift
/// let key = try parser.objectKey(token)   // "dog_id": .packed, its bytes
/// key.text                                // "dog_id", made when asked for
/// ```
enum ObjectKey {
  /// `length` (0 to 16) ASCII bytes, 8 a word, the first byte lowest (`TokenTexts.packedASCII`).
  case packed(low: UInt64, high: UInt64, length: Int)
  /// The key's text, decoded from its token.
  case decoded(String)

  /// The key's text.
  var text: String {
    switch self {
    case .packed(let low, let high, let length):
      TokenTexts.text(packed: low, high, length: length)
    case .decoded(let text): text
    }
  }
}

/// The keys of the objects being read, the innermost's last: one stack for every object of a
/// parse (`Parser.objectKeys`), each object's first 16 keys on it while the object is read, so a
/// key is compared with those before it in its object. A packed key is an entry of three words
/// and no reference: a push is three stores, a pop is setting the count, and a compare with a
/// packed key before it is three compares.
///
/// ```swift
/// let mark = keys.mark                       // where an object's keys start
/// if keys.contains(key, since: mark) { ... } // written before in this object: an error
/// keys.push(key)
/// keys.pop(to: mark)                         // the object ends (or fails)
/// ```
/// Two keys are the same exactly when their Strings are (`String`'s `==`, which takes canonically
/// equivalent text as equal: `"K"` and `"\u212A"`, the Kelvin sign, are one key): two packed keys
/// are ASCII, whose Strings are equal only when their bytes are, and a decoded key is compared
/// with any other as Strings. One parser's own.
final class ObjectKeys {
  /// A key on the stack: packed (`length` 0 to 16), or decoded (`length` below zero: its text is
  /// `decoded[-1 - length]`).
  private struct Entry {
    var low: UInt64
    var high: UInt64
    var length: Int
  }

  /// Where an object's keys start on the stack.
  struct Mark {
    fileprivate let entries: Int
    fileprivate let decoded: Int
  }

  // Unchecked: each access to a class's stored property was otherwise checked at run time for
  // exclusive access (a call of some 60 instructions); the stack is one parser's, which reads
  // it from one thread, and never lends one of these while it calls out.
  @exclusivity(unchecked) private var entries: UnsafeMutablePointer<Entry>
  @exclusivity(unchecked) private var count = 0
  @exclusivity(unchecked) private var capacity = 0
  /// The texts of the decoded keys on the stack, in order.
  @exclusivity(unchecked) private var decoded: [String] = []

  init() {
    // No room until a key is pushed: most parses read no object.
    entries = .allocate(capacity: 0)
  }

  deinit {
    entries.deallocate()
  }

  /// Where the keys of an object that starts now start.
  @inline(__always) var mark: Mark { Mark(entries: count, decoded: decoded.count) }

  /// Whether one of the keys pushed since `mark` is `key`: for a packed key among packed keys
  /// (most), a loop of three compares a key, inlined.
  @inline(__always) func contains(_ key: ObjectKey, since mark: Mark) -> Bool {
    guard case .packed(let low, let high, let length) = key, decoded.count == mark.decoded else {
      return containsText(key.text, since: mark)
    }
    var index = mark.entries
    while index < count {
      let entry = entries[index]
      if entry.low == low && entry.high == high && entry.length == length { return true }
      index &+= 1
    }
    return false
  }

  /// Whether the text of one of the keys pushed since `mark` is `text`: where a key, the new one
  /// or one before it, is decoded.
  @inline(never) private func containsText(_ text: String, since mark: Mark) -> Bool {
    var index = mark.entries
    while index < count {
      if self.text(of: entries[index]) == text { return true }
      index &+= 1
    }
    return false
  }

  /// The texts of the keys pushed since `mark`, in order.
  func texts(since mark: Mark) -> [String] {
    (mark.entries..<count).map { text(of: entries[$0]) }
  }

  /// Pushes `key`.
  @inline(__always) func push(_ key: ObjectKey) {
    guard case .packed(let low, let high, let length) = key, count < capacity else {
      return pushSlowly(key)
    }
    (entries + count).initialize(to: Entry(low: low, high: high, length: length))
    count &+= 1
  }

  /// Pushes a decoded key, or any key when the stack is full (grown first).
  @inline(never) private func pushSlowly(_ key: ObjectKey) {
    if count == capacity { grow() }
    switch key {
    case .packed(let low, let high, let length):
      (entries + count).initialize(to: Entry(low: low, high: high, length: length))
    case .decoded(let text):
      (entries + count).initialize(to: Entry(low: 0, high: 0, length: -1 &- decoded.count))
      decoded.append(text)
    }
    count &+= 1
  }

  /// Pops the keys pushed since `mark`.
  @inline(__always) func pop(to mark: Mark) {
    count = mark.entries
    // From the end, one at a time: `removeLast(_:)` took the generic replace path.
    while decoded.count > mark.decoded { decoded.removeLast() }
  }

  private func text(of entry: Entry) -> String {
    entry.length < 0
      ? decoded[-1 &- entry.length]
      : TokenTexts.text(packed: entry.low, entry.high, length: entry.length)
  }

  /// Twice the room (16 at first), the entries moved into it.
  private func grow() {
    let larger = max(16, capacity &* 2)
    let moved = UnsafeMutablePointer<Entry>.allocate(capacity: larger)
    moved.moveInitialize(from: entries, count: count)
    entries.deallocate()
    entries = moved
    capacity = larger
  }
}
