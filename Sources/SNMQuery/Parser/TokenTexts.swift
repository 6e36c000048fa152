/// The Strings of a parse's short tokens, kept by their bytes: a script names the same tables,
/// columns, keys and small numbers again and again, and decoding each one's UTF-8 afresh (a
/// validation pass, then the String) was a good part of a statement's parse.
///
/// ```swift
/// let texts = TokenTexts()
/// texts.text(of: range, in: source)   // "dog_profile", the same String the next time too
/// ```
/// A text of 1 to 15 ASCII bytes (most names, keys and numbers) is made where it is asked for,
/// from its two loads: the standard library keeps such a String in its own two words, with no
/// memory to point to, so those words are written as it writes them (`smallString`), which is
/// cheaper than finding a kept one. The other texts of up to 16 ASCII bytes are kept, 256 of them, two slots for each by a hash of their bytes
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
  /// A kept short text: its bytes packed 8 to a word (`low`, `high`) with its length (no two
  /// texts of up to 16 bytes share all three), and its String. One entry a slot, so that a hit
  /// reads one place.
  private struct Entry {
    var low: UInt64
    var high: UInt64
    var length: Int
    var text: String
  }
  private let entries: UnsafeMutablePointer<Entry>
  private static let longSlots = 16
  /// The longer texts: each slot's hash of its bytes (0: empty) and its String.
  private let longHashes: UnsafeMutablePointer<UInt64>
  private let longStrings: UnsafeMutablePointer<String>
  /// `smallStringLayout`, kept here (a static `let` is checked at each read).
  private let smallStrings = TokenTexts.smallStringLayout

  init() {
    entries = .allocate(capacity: Self.slots)
    // No text has length -1: an empty slot matches nothing.
    entries.initialize(
      repeating: Entry(low: 0, high: 0, length: -1, text: ""), count: Self.slots)
    longHashes = .allocate(capacity: Self.longSlots)
    longHashes.initialize(repeating: 0, count: Self.longSlots)
    longStrings = .allocate(capacity: Self.longSlots)
    longStrings.initialize(repeating: "", count: Self.longSlots)
  }

  deinit {
    entries.deinitialize(count: Self.slots)
    entries.deallocate()
    longHashes.deallocate()
    longStrings.deinitialize(count: Self.longSlots)
    longStrings.deallocate()
  }

  /// The text covered by `range` in `source`: `source.text(of: range)`. A text of 1 to 15 ASCII
  /// bytes 16 or more before the source's end (most of them) is packed by two loads and made
  /// here, with no frame: every other text is `otherText`'s, a call this one ends with.
  @inline(never) func text(of range: SourceRange, in source: Source) -> String {
    let start = range.start
    let length = range.end &- start
    let bytes = source.bytes
    // 1 to 15 bytes: one compare (an empty or reversed range wraps to a large count).
    if UInt(bitPattern: length &- 1) < 15 && start &+ 16 <= bytes.count && smallStrings {
      let (low, high) = TokenTexts.pack(bytes, from: start, length: length)
      if (low | high) & NameWord.highs == 0 {
        return TokenTexts.smallString(low, high, length: length)
      }
    }
    return otherText(of: range, in: source)
  }

  /// A text `text(of:in:)` does not make inline: 16 bytes, not ASCII, or a rare one
  /// (`rareText`). A short ASCII text 16 bytes or more before the source's end is packed by two
  /// loads and found in its two slots.
  @inline(never)
  private func otherText(of range: SourceRange, in source: Source) -> String {
    let start = range.start
    let length = range.end &- start
    guard start >= 0, length > 0, length <= 16, start &+ 16 <= source.bytes.count else {
      return rareText(of: range, in: source)
    }
    let (low, high) = TokenTexts.pack(source.bytes, from: start, length: length)
    // Not ASCII: decoded as ever (it may need repairs).
    guard (low | high) & NameWord.highs == 0 else { return source.text(of: range) }
    if length < 16 && smallStrings { return TokenTexts.smallString(low, high, length: length) }
    return shortText(low, high, length: length, range: range, in: source)
  }

  /// The 1 to 16 bytes from `start`, packed 8 to a word (the first byte lowest) by two loads
  /// cut to the text: the bytes after it are read, never kept. 16 bytes from `start` must be in
  /// `bytes`.
  @inline(__always) private static func pack(_ bytes: [UInt8], from start: Int, length: Int)
    -> (UInt64, UInt64)
  {
    bytes.withUnsafeBufferPointer { buffer in
      (
        NameWord.first(length, of: NameWord.load(buffer, at: start)),
        length > 8 ? NameWord.first(length &- 8, of: NameWord.load(buffer, at: start &+ 8)) : 0
      )
    }
  }

  /// The 0 to 16 bytes from `start` (which must be in `bytes`), packed as `pack` packs them, a
  /// byte at a time: for a text within 16 bytes of the source's end.
  private static func packByBytes(_ bytes: [UInt8], from start: Int, length: Int)
    -> (UInt64, UInt64)
  {
    var low: UInt64 = 0
    var high: UInt64 = 0
    var offset = 0
    while offset < length {
      let byte = UInt64(bytes[start &+ offset])
      if offset < 8 {
        low |= byte &<< UInt64(offset &* 8)
      } else {
        high |= byte &<< UInt64((offset &- 8) &* 8)
      }
      offset &+= 1
    }
    return (low, high)
  }

  /// The bytes of `range` packed 8 to a word (the first byte lowest) when they are 16 or fewer,
  /// all ASCII; nil otherwise. What an object's plain key is compared by (``ObjectKey``).
  @inline(__always) static func packedASCII(_ range: SourceRange, in source: Source)
    -> (low: UInt64, high: UInt64)?
  {
    let start = range.start
    let length = range.end &- start
    // 0 to 16 bytes: one compare (a reversed range wraps to a large count).
    guard UInt(bitPattern: length) <= 16, start >= 0, range.end <= source.bytes.count else {
      return nil
    }
    let (low, high) =
      start &+ 16 <= source.bytes.count
      ? pack(source.bytes, from: start, length: length)
      : packByBytes(source.bytes, from: start, length: length)
    return (low | high) & NameWord.highs == 0 ? (low, high) : nil
  }

  /// The String of the 0 to 16 ASCII bytes packed in `low`, `high` (`packedASCII`'s): the same
  /// String as decoding them makes.
  static func text(packed low: UInt64, _ high: UInt64, length: Int) -> String {
    if length == 0 { return "" }
    if length < 16 && smallStringLayout { return smallString(low, high, length: length) }
    return withUnsafeBytes(of: (low.littleEndian, high.littleEndian)) { words in
      String(decoding: words.prefix(length), as: UTF8.self)
    }
  }

  /// The String of 1 to 15 ASCII bytes packed in `low`, `high` (the first byte lowest), made as
  /// the standard library makes such a String: held in the String's two words themselves, the
  /// bytes then their count with the marks of a small ASCII string in the last byte. No memory,
  /// no decode, no slot: what `String(decoding:as:)` returns for those bytes, bit for bit
  /// (`smallStringLayout` checks that once; without it the slots are used).
  @inline(__always) private static func smallString(_ low: UInt64, _ high: UInt64, length: Int)
    -> String
  {
    // The words of an empty String (immortal: nothing to release) replaced by the text's, which
    // are immortal too: no retain, as a copy of the words into a String (`unsafeBitCast`) made.
    // Unprotected: the two stores are the String's own two words, at fixed offsets; the
    // protected form set up and checked a stack guard for each text (and so each caller it is
    // inlined into).
    var text = ""
    _withUnprotectedUnsafeMutablePointer(to: &text) { pointer in
      let words = UnsafeMutableRawPointer(pointer)
      words.storeBytes(of: low, as: UInt64.self)
      words.storeBytes(of: high | smallMarks(length), toByteOffset: 8, as: UInt64.self)
    }
    return text
  }

  /// The last byte of a small ASCII String of `length` bytes: immortal, ASCII and small (0xE0),
  /// and its count.
  @inline(__always) private static func smallMarks(_ length: Int) -> UInt64 {
    (0xE0 | UInt64(truncatingIfNeeded: length)) &<< 56
  }

  /// Whether Strings of 1 to 15 ASCII bytes are made as `smallString` makes them: the two words
  /// of every such String `String(decoding:as:)` returns, compared with `smallString`'s. True
  /// for the standard library's layout of a String on 64-bit platforms since Swift 5; checked
  /// once a process all the same.
  static let smallStringLayout: Bool = {
    guard MemoryLayout<String>.size == 16 else { return false }
    let sample = Array("dog_profile_idX9".utf8)
    for length in 1...15 {
      var low: UInt64 = 0
      var high: UInt64 = 0
      for (offset, byte) in sample.prefix(length).enumerated() {
        if offset < 8 {
          low |= UInt64(byte) << UInt64(offset * 8)
        } else {
          high |= UInt64(byte) << UInt64((offset - 8) * 8)
        }
      }
      let made = String(decoding: sample.prefix(length), as: UTF8.self)
      let words = unsafeBitCast(made, to: (UInt64, UInt64).self)
      guard words.0 == low, words.1 == high | smallMarks(length) else { return false }
    }
    return true
  }()

  /// A text `text(of:in:)` does not pack by its two loads: empty, outside the source, longer
  /// than 16 bytes, or within 16 bytes of the source's end.
  private func rareText(of range: SourceRange, in source: Source) -> String {
    let start = range.start
    let length = range.end &- start
    guard start >= 0, length > 0, length <= 64, range.end <= source.bytes.count else {
      return source.text(of: range)
    }
    if length > 16 { return longText(from: start, length: length, in: source) }
    let (low, high) = TokenTexts.packByBytes(source.bytes, from: start, length: length)
    guard (low | high) & NameWord.highs == 0 else { return source.text(of: range) }
    if length < 16 && smallStrings { return TokenTexts.smallString(low, high, length: length) }
    return shortText(low, high, length: length, range: range, in: source)
  }

  /// The String of the ASCII text packed in `low`, `high` (`length` bytes, 16, or 1 to 15 when
  /// `smallString` is not used): the kept one, or decoded and kept in the first of its hash's two
  /// slots (the text that held it moves to the second).
  @inline(never)
  private func shortText(
    _ low: UInt64, _ high: UInt64, length: Int, range: SourceRange, in source: Source
  ) -> String {
    let hash = (low &* 0x9E37_79B9_7F4A_7C15) ^ (high &* 0xC2B2_AE3D_27D4_EB4F)
    let first = entries + (Int(truncatingIfNeeded: hash >> 57) &<< 1)
    if first.pointee.low == low && first.pointee.high == high && first.pointee.length == length {
      return first.pointee.text
    }
    let other = first + 1
    if other.pointee.low == low && other.pointee.high == high && other.pointee.length == length {
      return other.pointee.text
    }
    return keep(low, high, length: length, at: first, text: source.text(of: range))
  }

  /// Keeps `text` in `first`, moving the text there to the slot after it.
  private func keep(
    _ low: UInt64, _ high: UInt64, length: Int, at first: UnsafeMutablePointer<Entry>,
    text: String
  ) -> String {
    (first + 1).pointee = first.move()
    first.initialize(to: Entry(low: low, high: high, length: length, text: text))
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
