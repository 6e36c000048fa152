/// A set of variable names: the names a script's `let`s bind, as the checker keeps them.
///
/// ```swift
/// var names = NameSet(["n"])
/// names.insert("dog1")
/// names.contains("dog1")   // true
/// ```
/// A name is found by a hash of its UTF-8 bytes (FNV-1a), kept with its index in a table of open
/// addressing: a `Set<String>` hashed each name with SipHash, and again for each name at every growth, which
/// made a `let` cost ~1,000 instructions in `snm check` (a script of 250 `let`s). Names compare
/// as Strings do (canonical equivalence), so two spellings of one name are one name here too.
public struct NameSet: Sendable, Sequence {
  /// The names, in the order they were added.
  private var names: [String] = []
  /// Where each name is: a power of two of places, at most half of them used, each a name's hash
  /// and its index in `names` (hash 0: an empty place). Plain numbers: growing it moves no String
  /// and frees none (a table of Strings released every empty place's String when it grew, and
  /// retained each name it moved).
  private var places: [Place]
  public var count: Int { names.count }
  /// A name with non-ASCII bytes is in the set: a lookup that misses by hash then compares by
  /// `==` with every name (`equivalent(to:)`).
  private var hasNonASCII = false

  private struct Place: Sendable {
    var hash: UInt64
    var index: Int
  }

  public init() {
    places = Array(repeating: Place(hash: 0, index: 0), count: 16)
  }

  public init<Names: Sequence>(_ names: Names) where Names.Element == String {
    self.init()
    for name in names { insert(name) }
  }

  public var isEmpty: Bool { names.isEmpty }

  /// The name's hash: FNV-1a over its UTF-8 bytes, its bits then mixed (FNV leaves a last
  /// byte in a few bits only), never 0; and whether every byte is ASCII. Names that are
  /// canonically equivalent but spelled with other bytes hash apart: once a non-ASCII name is in
  /// play a lookup that misses compares by `==` with every name (`equivalent(to:)`).
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

  /// The place holding `name` (`name`, when nil: the first empty place for `hash`), or the empty
  /// place where it would go.
  private func place(of name: String?, hash: UInt64) -> (index: Int, found: Bool) {
    places.withUnsafeBufferPointer { places in
      let mask = places.count &- 1
      var index = Int(truncatingIfNeeded: hash >> 32) & mask
      while true {
        let placeHash = places[index].hash
        if placeHash == 0 { return (index, false) }
        if let name, placeHash == hash && names[places[index].index] == name {
          return (index, true)
        }
        index = (index &+ 1) & mask
      }
    }
  }

  /// Whether a name equal to `name` (as Strings compare) is in the set.
  public func contains(_ name: String) -> Bool {
    let (hash, ascii) = Self.hash(name)
    if place(of: name, hash: hash).found { return true }
    return (hasNonASCII || !ascii) && equivalent(to: name)
  }

  /// Whether a name equals `name` by `==` though its bytes differ (canonical equivalence).
  private func equivalent(to name: String) -> Bool {
    names.contains { $0 == name }
  }

  /// Adds `name`; false when a name equal to it was there already.
  @discardableResult
  public mutating func insert(_ name: String) -> Bool {
    let (hash, ascii) = Self.hash(name)
    var (index, found) = place(of: name, hash: hash)
    if found || ((hasNonASCII || !ascii) && equivalent(to: name)) { return false }
    if !ascii { hasNonASCII = true }
    if (names.count &+ 1) &* 2 > places.count {
      grow()
      index = place(of: nil, hash: hash).index
    }
    places[index] = Place(hash: hash, index: names.count)
    names.append(name)
    return true
  }

  /// Twice the places, each name's put at its place by its kept hash.
  private mutating func grow() {
    let old = places
    places = Array(repeating: Place(hash: 0, index: 0), count: old.count &* 2)
    for entry in old where entry.hash != 0 {
      places[place(of: nil, hash: entry.hash).index] = entry
    }
  }

  /// The names, in the order they were added.
  public func makeIterator() -> IndexingIterator<[String]> {
    names.makeIterator()
  }
}
