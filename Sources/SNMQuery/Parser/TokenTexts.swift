/// The Strings of a parse's short tokens, kept by their bytes: a script names the same tables,
/// columns, keys and small numbers again and again, and decoding each one's UTF-8 afresh (a
/// validation pass, then the String) was a good part of a statement's parse.
///
/// ```swift
/// let texts = TokenTexts()
/// texts.text(of: range, in: source)   // "dog_profile", the same String the next time too
/// ```
/// Texts of up to 16 ASCII bytes are kept, 256 of them, two slots for each by a hash of their bytes
/// (a new text takes the first of its two, and the text that held it moves to the second): with one
/// slot each of 64, names a script uses on every line took each other's slots, and 2.4 texts a
/// statement were decoded again (0.65 now, against 0.49 a statement never seen before). Texts of 17 to 64 bytes (UUIDs and addresses in
/// quotes), any bytes, are kept too, 16 of them by a hash of their bytes, and handed out again
/// only when the kept String's UTF-8 is the same bytes (so never for bytes a decode repaired).
/// Any other text is decoded as `Source.text(of:)` decodes it, which is what every text comes out
/// as either way. One parser's own: not shared between threads.
final class TokenTexts {
  /// Two slots for each of 128 hashes: `2 * hash` and the one after it.
  private static let slots = 256
  /// Each slot's text packed 8 bytes to a word (`low`, `high`) with its length: no two texts of
  /// up to 16 bytes share all three.
  private let low: UnsafeMutablePointer<UInt64>
  private let high: UnsafeMutablePointer<UInt64>
  private let lengths: UnsafeMutablePointer<Int>
  private let strings: UnsafeMutablePointer<String>
  private static let longSlots = 16
  /// The longer texts: each slot's hash of its bytes (0: empty) and its String.
  private let longHashes: UnsafeMutablePointer<UInt64>
  private let longStrings: UnsafeMutablePointer<String>

  init() {
    low = .allocate(capacity: Self.slots)
    low.initialize(repeating: 0, count: Self.slots)
    high = .allocate(capacity: Self.slots)
    high.initialize(repeating: 0, count: Self.slots)
    lengths = .allocate(capacity: Self.slots)
    // No text has length -1: an empty slot matches nothing.
    lengths.initialize(repeating: -1, count: Self.slots)
    strings = .allocate(capacity: Self.slots)
    strings.initialize(repeating: "", count: Self.slots)
    longHashes = .allocate(capacity: Self.longSlots)
    longHashes.initialize(repeating: 0, count: Self.longSlots)
    longStrings = .allocate(capacity: Self.longSlots)
    longStrings.initialize(repeating: "", count: Self.longSlots)
  }

  deinit {
    low.deallocate()
    high.deallocate()
    lengths.deallocate()
    strings.deinitialize(count: Self.slots)
    strings.deallocate()
    longHashes.deallocate()
    longStrings.deinitialize(count: Self.longSlots)
    longStrings.deallocate()
  }

  /// The text covered by `range` in `source`: `source.text(of: range)`.
  func text(of range: SourceRange, in source: Source) -> String {
    let start = range.start
    let length = range.end &- start
    guard start >= 0, length > 0, length <= 64, range.end <= source.bytes.count else {
      return source.text(of: range)
    }
    if length > 16 { return longText(from: start, length: length, in: source) }
    let packed = source.bytes.withUnsafeBufferPointer { bytes -> (UInt64, UInt64, UInt8) in
      if start &+ 16 <= bytes.count {
        // Two loads cut to the text: the bytes after it are read, never kept.
        let low = NameWord.first(length, of: NameWord.load(bytes, at: start))
        let high =
          length > 8 ? NameWord.first(length &- 8, of: NameWord.load(bytes, at: start &+ 8)) : 0
        return (low, high, (low | high) & NameWord.highs == 0 ? 0 : 0x80)
      }
      var low: UInt64 = 0
      var high: UInt64 = 0
      var seen: UInt8 = 0
      var offset = 0
      while offset < length {
        let byte = bytes[start &+ offset]
        seen |= byte
        if offset < 8 {
          low |= UInt64(byte) << UInt64(offset &* 8)
        } else {
          high |= UInt64(byte) << UInt64((offset &- 8) &* 8)
        }
        offset &+= 1
      }
      return (low, high, seen)
    }
    // Not ASCII: decoded as ever (it may need repairs).
    guard packed.2 < 0x80 else { return source.text(of: range) }
    let hash = (packed.0 &* 0x9E37_79B9_7F4A_7C15) ^ (packed.1 &* 0xC2B2_AE3D_27D4_EB4F)
    let slot = Int(truncatingIfNeeded: hash >> 57) &<< 1
    if lengths[slot] == length && low[slot] == packed.0 && high[slot] == packed.1 {
      return strings[slot]
    }
    let second = slot &+ 1
    if lengths[second] == length && low[second] == packed.0 && high[second] == packed.1 {
      return strings[second]
    }
    let text = source.text(of: range)
    low[second] = low[slot]
    high[second] = high[slot]
    lengths[second] = lengths[slot]
    (strings + second).pointee = (strings + slot).move()
    low[slot] = packed.0
    high[slot] = packed.1
    lengths[slot] = length
    (strings + slot).initialize(to: text)
    return text
  }

  /// A text of 17 to 64 bytes: the kept String when its bytes are these, else decoded and kept.
  private func longText(from start: Int, length: Int, in source: Source) -> String {
    let hash = source.bytes.withUnsafeBufferPointer { bytes -> UInt64 in
      var hash = UInt64(truncatingIfNeeded: length) &* 0x9E37_79B9_7F4A_7C15
      var offset = start
      let end = start &+ length
      while offset < end {
        // Eight bytes a step while eight are left in the source, then the last ones one by one.
        var word: UInt64 = 0
        if offset &+ 8 <= bytes.count {
          word = NameWord.first(end &- offset, of: NameWord.load(bytes, at: offset))
          offset &+= 8
        } else {
          word = UInt64(bytes[offset])
          offset &+= 1
        }
        hash = (hash ^ word) &* 0xC2B2_AE3D_27D4_EB4F
        hash ^= hash >> 29
      }
      return hash | 1
    }
    let slot = Int(truncatingIfNeeded: hash >> 60)
    if longHashes[slot] == hash {
      let kept = longStrings[slot]
      let same = kept.utf8.withContiguousStorageIfAvailable { utf8 -> Bool in
        utf8.count == length
          && source.bytes.withUnsafeBufferPointer { bytes in
            var offset = 0
            while offset &+ 8 <= length {
              if NameWord.load(utf8, at: offset) != NameWord.load(bytes, at: start &+ offset) {
                return false
              }
              offset &+= 8
            }
            while offset < length {
              if utf8[offset] != bytes[start &+ offset] { return false }
              offset &+= 1
            }
            return true
          }
      }
      if same == true { return kept }
    }
    let text = source.text(of: SourceRange(start: start, end: start &+ length))
    longHashes[slot] = hash
    longStrings[slot] = text
    return text
  }
}
