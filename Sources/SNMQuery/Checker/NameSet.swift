/// A set of variable names: the names a script's `let`s bind, as the checker keeps them.
///
/// ```swift
/// var names = NameSet(["n"])
/// names.insert("dog1")
/// names.contains("dog1")   // true
/// ```
/// A name is found by a hash of its UTF-8 bytes (FNV-1a) kept beside it, in open addressing: a
/// `Set<String>` hashed each name with SipHash, and again for each name at every growth, which
/// made a `let` cost ~1,000 instructions in `snm check` (a script of 250 `let`s). Names compare
/// as Strings do (canonical equivalence), so two spellings of one name are one name here too.
public struct NameSet: Sendable, Sequence {
  /// A power of two of slots, at most half of them used; a slot with hash 0 is empty.
  private var slots: [Slot]
  public private(set) var count = 0
  /// A name with non-ASCII bytes is in the set: a lookup that misses by hash then compares by
  /// `==` with every name (`equivalentSlot`).
  private var hasNonASCII = false

  private struct Slot: Sendable {
    var hash: UInt64
    var name: String
  }

  public init() {
    slots = Array(repeating: Slot(hash: 0, name: ""), count: 16)
  }

  public init<Names: Sequence>(_ names: Names) where Names.Element == String {
    self.init()
    for name in names { insert(name) }
  }

  public var isEmpty: Bool { count == 0 }

  /// The name's hash: FNV-1a over its UTF-8 bytes, its bits then mixed (FNV leaves a last
  /// byte in a few bits only), never 0; and whether every byte is ASCII. Names that are
  /// canonically equivalent but spelled with other bytes hash apart: once a non-ASCII name is in
  /// play a lookup that misses compares by `==` with every name (`equivalentSlot`).
  private static func hash(_ name: String) -> (hash: UInt64, ascii: Bool) {
    // Over the UTF-8 in place (a small or native String is not copied): stepping through
    // `utf8` asked the String for each byte.
    var text = name
    return text.withUTF8 { bytes in
      var hash: UInt64 = 0xCBF2_9CE4_8422_2325
      var seen: UInt8 = 0
      for byte in bytes {
        hash = (hash ^ UInt64(byte)) &* 0x100_0000_01B3
        seen |= byte
      }
      hash = (hash ^ (hash &>> 32)) &* 0xD6E8_FEB8_6659_FD93
      hash ^= hash &>> 32
      return (hash | 1, seen < 0x80)
    }
  }

  /// The slot holding `name`, or the empty slot where it would go.
  private func slot(of name: String, hash: UInt64) -> (index: Int, found: Bool) {
    slots.withUnsafeBufferPointer { slots in
      let mask = slots.count &- 1
      var index = Int(truncatingIfNeeded: hash >> 32) & mask
      while true {
        let slotHash = slots[index].hash
        if slotHash == 0 { return (index, false) }
        if slotHash == hash && slots[index].name == name { return (index, true) }
        index = (index &+ 1) & mask
      }
    }
  }

  /// Whether a name equal to `name` (as Strings compare) is in the set.
  public func contains(_ name: String) -> Bool {
    let (hash, ascii) = Self.hash(name)
    if slot(of: name, hash: hash).found { return true }
    return (hasNonASCII || !ascii) && equivalentSlot(of: name) != nil
  }

  /// A slot whose name equals `name` by `==` though its bytes differ (canonical equivalence).
  private func equivalentSlot(of name: String) -> Int? {
    slots.indices.first { slots[$0].hash != 0 && slots[$0].name == name }
  }

  /// Adds `name`; false when a name equal to it was there already.
  @discardableResult
  public mutating func insert(_ name: String) -> Bool {
    let (hash, ascii) = Self.hash(name)
    var (index, found) = slot(of: name, hash: hash)
    if found || ((hasNonASCII || !ascii) && equivalentSlot(of: name) != nil) { return false }
    if !ascii { hasNonASCII = true }
    if (count &+ 1) &* 2 > slots.count {
      grow()
      index = slot(of: name, hash: hash).index
    }
    slots[index] = Slot(hash: hash, name: name)
    count &+= 1
    return true
  }

  /// Twice the slots, each name moved to its place by its kept hash (a copy of the old slots
  /// retained each name and released it again).
  private mutating func grow() {
    var old = Array(repeating: Slot(hash: 0, name: ""), count: slots.count &* 2)
    swap(&old, &slots)
    old.withUnsafeMutableBufferPointer { old in
      let base = old.baseAddress.unsafelyUnwrapped
      for index in old.indices where old[index].hash != 0 {
        // The old place is left an empty slot (its name immortal: nothing to release).
        let entry = (base + index).move()
        (base + index).initialize(to: Slot(hash: 0, name: ""))
        slots[slot(of: entry.name, hash: entry.hash).index] = entry
      }
    }
  }

  /// The names, in no particular order.
  public func makeIterator() -> some IteratorProtocol<String> {
    slots.lazy.filter { $0.hash != 0 }.map(\.name).makeIterator()
  }
}
