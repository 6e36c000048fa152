/// Control characters and invisible format characters shown as escapes (`\u{1B}`, `\u{202E}`):
/// the one list of the characters a reader must not be shown raw. SNMNetwork's request trace
/// escapes a server's lines by it, SNMQuery's DiagnosticRenderer the lines of a script a
/// diagnostic quotes, SNMShell's VisibleText what a server sends, and SNMCodegen's SwiftName the
/// literals, comments and names it writes (adding the joiners, see there).
package enum VisibleTextLine {
  package static func escaped(_ line: String) -> String {
    escaping(line, from: 0, as: escape)
  }

  /// `text` with each scalar from `lowest` up that ``hides(_:)`` lists written as `escape`
  /// writes it (`lowest` is 0, 0x7F or 0x80: a hidden scalar's first UTF-8 byte is at least
  /// `lowest` when the scalar is); text without any is returned as it is, untouched.
  package static func escaping(
    _ text: String, from lowest: UInt8, as escape: (Unicode.Scalar) -> String
  ) -> String {
    guard text.utf8.contains(where: { $0 >= lowest && mayHide($0) }) else { return text }
    var escaped = ""
    forEachScalar(of: text) { scalar, hidden in
      if hidden && scalar.value >= UInt32(lowest) {
        escaped += escape(scalar)
      } else {
        escaped.unicodeScalars.append(scalar)
      }
    }
    return escaped
  }

  /// Calls `body` with each scalar of `text` in turn and whether it is shown as an escape: what
  /// ``hides(_:)`` lists, except the tag characters of a subdivision flag (U+1F3F4, then 3 to 7
  /// tag digits and small letters, U+E0030...U+E0039 and U+E0061...U+E007A, ended by U+E007F:
  /// Scotland's is "gbsct"), which a terminal shows as the flag they make. Any other tag
  /// character is text a reader cannot see (ASCII smuggling), a flag's longer tail too. A
  /// variation selector is shown as it is only right after a base it can modify
  /// (``selects(_:after:)``); any other, a run of them above all, is escaped.
  package static func forEachScalar(of text: String, _ body: (Unicode.Scalar, Bool) -> Void) {
    let scalars = text.unicodeScalars
    var index = scalars.startIndex
    // The scalar before, when it was shown as it is (nil at the start and after an escape).
    var shown: UInt32?
    while index != scalars.endIndex {
      let scalar = scalars[index]
      scalars.formIndex(after: &index)
      let value = scalar.value
      let hidden = isSelector(value) ? !selects(value, after: shown) : hides(scalar)
      body(scalar, hidden)
      shown = hidden ? nil : value
      guard value == 0x1F3F4, let end = flagEnd(scalars, from: index) else { continue }
      while index != end {
        body(scalars[index], false)
        scalars.formIndex(after: &index)
      }
      shown = 0xE007F
    }
  }

  /// Whether `selector` (U+FE00...U+FE0F, or the supplement's U+E0100...U+E01EF) right after
  /// `base` (nil: none shown) is a variation sequence a reader sees the effect of, shown as it
  /// is: one selector after a base it can modify. A supplement's picks an ideograph's registered
  /// glyph (UTS #37: its base is a CJK unified ideograph); U+FE00...U+FE0F follow a symbol, a
  /// letter of another script or an emoji (text or emoji presentation), or of ASCII only a
  /// digit, `#` or `*` (keycaps, the slashed zero). Not after another selector (a run of them
  /// carries a byte each behind one visible character: the variation-selector smuggling), a
  /// joiner, an escape or nothing. A Mongolian free variation selector picks a Mongolian
  /// letter's form (U+1820...U+18AA), after nothing else. Unicode 15's 1,940 registered
  /// sequences and its 4,733 emoji (emoji-test.txt) keep every selector they hold.
  static func selects(_ selector: UInt32, after base: UInt32?) -> Bool {
    guard let base, !isSelector(base), base != 0x200C, base != 0x200D, base != 0xE007F
    else { return false }
    if selector < 0x1810 { return (0x1820...0x18AA).contains(base) }
    if selector >= 0xE0100 { return isIdeograph(base) }
    guard base < 0x80 else { return true }
    return (0x30...0x39).contains(base) || base == 0x23 || base == 0x2A
  }

  /// Whether `value` is a CJK ideograph (unified, its extensions, compatibility), whose glyph a
  /// variation selector may pick.
  package static func isIdeograph(_ value: UInt32) -> Bool {
    (0x3400...0x4DBF).contains(value) || (0x4E00...0x9FFF).contains(value)
      || (0xF900...0xFAFF).contains(value) || (0x20000...0x3FFFF).contains(value)
  }

  /// Whether `value` is a variation selector (U+FE00...U+FE0F, U+E0100...U+E01EF, Mongolian's
  /// free ones U+180B...U+180D and U+180F), which ``forEachScalar(of:_:)`` shows as it is or
  /// escaped by what it follows.
  package static func isSelector(_ value: UInt32) -> Bool {
    (0xFE00...0xFE0F).contains(value) || (0xE0100...0xE01EF).contains(value)
      || (0x180B...0x180D).contains(value) || value == 0x180F
  }

  /// Whether ``forEachScalar(of:_:)`` shows any scalar of `text` from `lowest` up as an escape.
  package static func hidesAny(_ text: String, from lowest: UInt32 = 0) -> Bool {
    var found = false
    forEachScalar(of: text) { scalar, hidden in found = found || (hidden && scalar.value >= lowest)
    }
    return found
  }

  /// The index past the U+E007F that ends a subdivision flag's tag characters from `start`
  /// (right after its U+1F3F4); nil when they are not 3 to 7 tag digits and small letters so
  /// ended (UTS #51's emoji tag sequence, its tags a CLDR subdivision id).
  static func flagEnd(_ scalars: String.UnicodeScalarView, from start: String.Index)
    -> String.Index?
  {
    var index = start
    var tags = 0
    while index != scalars.endIndex, tags <= 7 {
      let value = scalars[index].value
      scalars.formIndex(after: &index)
      if value == 0xE007F { return tags >= 3 ? index : nil }
      guard (0xE0030...0xE0039).contains(value) || (0xE0061...0xE007A).contains(value) else {
        return nil
      }
      tags += 1
    }
    return nil
  }

  /// `scalar` as the escape a reader is shown instead of it: `\u{202E}` (hexadecimal, upper case).
  package static func escape(_ scalar: Unicode.Scalar) -> String {
    "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
  }

  /// `text` with each line escaped as ``escaped(_:)`` escapes it, its line ends kept (the text
  /// `explain` prints, to a terminal and a pipe alike: a person reads it).
  package static func escapedKeepingLines(_ text: String) -> String {
    escaped(text, keepingLines: true, tabs: false)
  }

  /// `text` as a person reads it (a note, an echoed statement, a log line, a downloaded text):
  /// with `lines` its line feeds as they are, and a CR right before one (a CRLF line end); with
  /// `tabs` its tabs (a tab moves the cursor on and writes nothing over what is there); every
  /// other scalar ``forEachScalar(of:_:)`` hides written as `escape` writes it. A lone CR too:
  /// at a terminal it takes the cursor back to the line's start, and what follows is printed
  /// over what came before ("pay Kim 10 EUR", CR, "pay Lee 99" reads "pay Lee 99 EUR").
  package static func escaped(
    _ text: String, keepingLines lines: Bool, tabs: Bool,
    as escape: (Unicode.Scalar) -> String = escape
  ) -> String {
    let hiding = text.utf8.contains { byte in
      mayHide(byte) && !(lines && byte == 0x0A) && !(tabs && byte == 0x09)
    }
    guard hiding else { return text }
    var escaped = ""
    var carriageReturn = false
    forEachScalar(of: text) { scalar, hidden in
      if carriageReturn {
        carriageReturn = false
        escaped += scalar == "\n" ? "\r" : escape("\r")
      }
      switch scalar {
      case "\n" where lines, "\t" where tabs: escaped.unicodeScalars.append(scalar)
      case "\r" where lines: carriageReturn = true
      case _ where hidden: escaped += escape(scalar)
      default: escaped.unicodeScalars.append(scalar)
      }
    }
    return carriageReturn ? escaped + escape("\r") : escaped
  }

  /// JSON text with DEL and the scalars ``hides(_:)`` lists above it written as `\u202e`
  /// escapes: the same JSON value (outside its strings JSON text holds only ASCII, so every one
  /// is in a string), and nothing reorders or hides a line of it (`explain json`).
  package static func escapedJSON(_ json: String) -> String {
    escaping(json, from: 0x7F) { jsonEscape($0) }
  }

  /// `scalar` as a JSON string's escape, `\u202e` (four hexadecimal digits), past U+FFFF as its
  /// UTF-16 surrogate pair (U+E0041 is `\udb40\udc41`).
  package static func jsonEscape(_ scalar: Unicode.Scalar, uppercase: Bool = false) -> String {
    func unit(_ value: UInt32) -> String {
      let digits = String(value, radix: 16, uppercase: uppercase)
      return "\\u" + String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }
    guard scalar.value > 0xFFFF else { return unit(scalar.value) }
    let past = scalar.value - 0x10000
    return unit(0xD800 + (past >> 10)) + unit(0xDC00 + (past & 0x3FF))
  }

  /// Whether `scalar` is shown as an escape: C0, DEL and C1 controls (they drive a terminal), and
  /// the invisible format characters that make a line read otherwise than it is (Trojan Source):
  /// bidirectional embeddings, overrides, isolates and marks (U+202A...U+202E, U+2066...U+2069,
  /// U+200E, U+200F, U+061C), zero-width and invisible characters (U+200B, U+2060...U+2065,
  /// U+FEFF, U+180E, U+00AD, U+206A...U+206F, U+FFF9...U+FFFB, the combining grapheme joiner
  /// U+034F, the Hangul fillers U+115F, U+1160, U+3164, U+FFA0 that pass for a blank name, the
  /// Khmer inherent vowels U+17B4, U+17B5, the unassigned U+FFF0...U+FFF8) and the line and
  /// paragraph separators U+2028, U+2029. Past U+FFFF the same kinds: the tag characters
  /// U+E0000...U+E007F (U+E0001 the language tag; invisible, so they carry text a reader cannot
  /// see, "ASCII smuggling"; a subdivision flag's stay, ``forEachScalar(of:_:)``), the
  /// default-ignorable U+E0080...U+E00FF and U+E01F0...U+E0FFF (unassigned, as U+2065 is), the
  /// invisible musical formatting U+1D173...U+1D17A (beams, ties, slurs, phrases, as
  /// U+2061...U+2064 are for mathematics) and the shorthand format controls U+1BCA0...U+1BCA3.
  /// Joiners (U+200C, U+200D)
  /// stay: they shape emoji and scripts and cannot reorder a line; so do the Egyptian hieroglyph
  /// format controls U+13430...U+1343F, which lay out the signs they join. Variation selectors
  /// (U+FE00...U+FE0F, the supplement's U+E0100...U+E01EF, and Mongolian's free ones U+180B...
  /// U+180D, U+180F) are not listed: whether one is escaped depends on what it follows
  /// (``forEachScalar(of:_:)``). So every Default_Ignorable_Code_Point of Unicode 15
  /// (DerivedCoreProperties.txt) is escaped but the joiners and a selector after its base.
  package static func hides(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.value {
    case 0..<0x20, 0x7F...0x9F, 0xAD, 0x34F, 0x61C, 0x115F, 0x1160, 0x17B4, 0x17B5, 0x180E,
      0x200B, 0x200E, 0x200F, 0x2028...0x202E, 0x2060...0x206F, 0x3164, 0xFEFF, 0xFFA0,
      0xFFF0...0xFFFB, 0x1BCA0...0x1BCA3, 0x1D173...0x1D17A, 0xE0000...0xE00FF, 0xE01F0...0xE0FFF:
      true
    default: false
    }
  }

  /// Whether `byte` can start the UTF-8 of a scalar that ``hides(_:)`` escapes: a test of each
  /// byte that lets text without any pass untouched (0xF0 starts every emoji too, 0xE3 kana and
  /// some ideographs, 0xCD combining marks and Greek: text with one takes the walk over its
  /// scalars).
  package static func mayHide(_ byte: UInt8) -> Bool {
    byte < 0x20 || byte == 0x7F || byte == 0xC2 || byte == 0xCD || byte == 0xD8 || byte == 0xE1
      || byte == 0xE2 || byte == 0xE3 || byte == 0xEF || byte == 0xF0 || byte == 0xF3
  }
}
