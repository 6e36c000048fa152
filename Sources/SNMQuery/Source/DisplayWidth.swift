/// How many terminal columns text takes: Korean and other wide characters and emoji take two,
/// combining marks and joiners none. Diagnostics place their carets by it, and the shell's tables,
/// records and completion lists their columns.
///
/// ```swift
/// DisplayWidth.of("김민지")   // 6
/// DisplayWidth.of("🐶 Bori") // 7
/// ```
public enum DisplayWidth {
  /// The columns `text` takes when printed.
  public static func of<S: StringProtocol>(_ text: S) -> Int {
    var ascii = true
    for byte in text.utf8 where byte >= 0x80 {
      ascii = false
      break
    }
    if ascii { return text.utf8.count }
    var total = 0
    for character in text { total += of(character) }
    return total
  }

  /// `of` for a `String`: the generic form is not specialised in other modules, where it reached
  /// every byte through a protocol witness (a twelfth of a 1-row script's instructions).
  public static func of(_ text: String) -> Int {
    if isASCII(text.utf8) { return text.utf8.count }
    var total = 0
    for character in text { total += of(character) }
    return total
  }

  /// `of` for a `Substring` (see `of(_: String)`).
  public static func of(_ text: Substring) -> Int {
    if isASCII(text.utf8) { return text.utf8.count }
    var total = 0
    for character in text { total += of(character) }
    return total
  }

  /// Whether every byte is below 0x80, eight bytes at a time over contiguous UTF-8 (every native
  /// string): the byte-by-byte test through the view's iterator cost a header cell ~200
  /// instructions, and a one-row table measures each of its headers twice.
  static func isASCII<View: Collection<UInt8>>(_ bytes: View) -> Bool {
    bytes.withContiguousStorageIfAvailable { isASCII($0) } ?? bytes.allSatisfy { $0 < 0x80 }
  }

  /// `isASCII` over bytes in memory.
  public static func isASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    guard let base = bytes.baseAddress else { return true }
    let raw = UnsafeRawPointer(base)
    var index = 0
    var high: UInt64 = 0
    while index + 8 <= bytes.count {
      high |= raw.loadUnaligned(fromByteOffset: index, as: UInt64.self)
      index += 8
    }
    while index < bytes.count {
      high |= UInt64(bytes[index])
      index += 1
    }
    return high & 0x8080_8080_8080_8080 == 0
  }

  /// The columns one grapheme takes: 2 for an emoji shown as a picture, else the sum of its scalars.
  public static func of(_ character: Character) -> Int {
    let scalars = character.unicodeScalars
    if let first = scalars.first, first.isASCII { return first.value < 0x20 ? 0 : 1 }
    if scalars.contains(where: { $0.properties.isEmojiPresentation })
      || (scalars.contains("\u{FE0F}") && scalars.contains(where: { $0.properties.isEmoji }))
    {
      return 2
    }
    return scalars.reduce(0) { $0 + of($1) }
  }

  /// The columns one scalar takes outside an emoji sequence.
  static func of(_ scalar: Unicode.Scalar) -> Int {
    switch scalar.properties.generalCategory {
    case .nonspacingMark, .enclosingMark, .format, .control: return 0
    default: break
    }
    if (0x1160...0x11FF).contains(scalar.value) { return 0 }  // Hangul medial vowels and finals
    return isWide(scalar.value) ? 2 : 1
  }

  /// East Asian Wide and Fullwidth blocks (Hangul, CJK, kana, fullwidth forms, wide symbols).
  static func isWide(_ value: UInt32) -> Bool {
    switch value {
    case 0x1100...0x115F, 0x231A...0x231B, 0x2329...0x232A, 0x2E80...0x303E, 0x3041...0x33FF,
      0x3400...0x4DBF, 0x4E00...0x9FFF, 0xA000...0xA4CF, 0xA960...0xA97F, 0xAC00...0xD7A3,
      0xF900...0xFAFF, 0xFE10...0xFE19, 0xFE30...0xFE6F, 0xFF00...0xFF60, 0xFFE0...0xFFE6,
      0x1F004, 0x1F0CF, 0x1F18E, 0x1F191...0x1F19A, 0x1F200...0x1F251, 0x1F300...0x1F64F,
      0x1F680...0x1F6FF, 0x1F900...0x1F9FF, 0x1FA70...0x1FAFF, 0x20000...0x2FFFD,
      0x30000...0x3FFFD:
      return true
    default:
      return false
    }
  }

  /// `text` cut to at most `width` columns, ending in `…` when something was cut.
  public static func truncate(_ text: String, to width: Int) -> String {
    guard width > 0 else { return "" }
    if of(text) <= width { return text }
    var out = ""
    var used = 0
    for character in text {
      let w = of(character)
      if used + w > width - 1 { break }
      out.append(character)
      used += w
    }
    return out + "…"
  }
}
