/// The Strings of a parse's short tokens, kept by their bytes: a script names the same tables,
/// columns, keys and small numbers again and again, and decoding each one's UTF-8 afresh (a
/// validation pass, then the String) was a good part of a statement's parse.
///
/// ```swift
/// let texts = TokenTexts()
/// texts.text(of: range, in: source)   // "dog_profile", the same String the next time too
/// ```
/// Texts of up to 16 ASCII bytes are kept, 64 of them, a slot for each by a hash of their bytes (a
/// new text takes the slot of the one before it); any other text is decoded as `Source.text(of:)`
/// decodes it, which is what every text comes out as either way. One parser's own: not shared
/// between threads.
final class TokenTexts {
  private static let slots = 64
  /// Each slot's text packed 8 bytes to a word (`low`, `high`) with its length: no two texts of
  /// up to 16 bytes share all three.
  private let low: UnsafeMutablePointer<UInt64>
  private let high: UnsafeMutablePointer<UInt64>
  private let lengths: UnsafeMutablePointer<Int>
  private let strings: UnsafeMutablePointer<String>

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
  }

  deinit {
    low.deallocate()
    high.deallocate()
    lengths.deallocate()
    strings.deinitialize(count: Self.slots)
    strings.deallocate()
  }

  /// The text covered by `range` in `source`: `source.text(of: range)`.
  func text(of range: SourceRange, in source: Source) -> String {
    let start = range.start
    let length = range.end &- start
    guard start >= 0, length > 0, length <= 16, range.end <= source.bytes.count else {
      return source.text(of: range)
    }
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
    let slot = Int(truncatingIfNeeded: hash >> 58)
    if lengths[slot] == length && low[slot] == packed.0 && high[slot] == packed.1 {
      return strings[slot]
    }
    let text = source.text(of: range)
    low[slot] = packed.0
    high[slot] = packed.1
    lengths[slot] = length
    strings[slot] = text
    return text
  }
}
