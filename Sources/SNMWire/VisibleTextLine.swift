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
    for scalar in text.unicodeScalars {
      if scalar.value >= UInt32(lowest) && hides(scalar) {
        escaped += escape(scalar)
      } else {
        escaped.unicodeScalars.append(scalar)
      }
    }
    return escaped
  }

  /// `scalar` as the escape a reader is shown instead of it: `\u{202E}` (hexadecimal, upper case).
  package static func escape(_ scalar: Unicode.Scalar) -> String {
    "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
  }

  /// `text` with each line escaped as ``escaped(_:)`` escapes it, its line feeds kept (the text
  /// `explain` prints, to a terminal and a pipe alike: a person reads it).
  package static func escapedKeepingLines(_ text: String) -> String {
    guard text.utf8.contains(where: { $0 != 0x0A && mayHide($0) }) else { return text }
    return text.split(separator: "\n", omittingEmptySubsequences: false)
      .map { escaped(String($0)) }.joined(separator: "\n")
  }

  /// JSON text with DEL and the scalars ``hides(_:)`` lists above it written as `\u202e`
  /// escapes: the same JSON value (outside its strings JSON text holds only ASCII, so every one
  /// is in a string), and nothing reorders or hides a line of it (`explain json`).
  package static func escapedJSON(_ json: String) -> String {
    escaping(json, from: 0x7F) { jsonEscape($0) }
  }

  /// `scalar` as a JSON string's escape, `\u202e` (four hexadecimal digits: every scalar
  /// ``hides(_:)`` lists is below U+10000).
  package static func jsonEscape(_ scalar: Unicode.Scalar, uppercase: Bool = false) -> String {
    let digits = String(scalar.value, radix: 16, uppercase: uppercase)
    return "\\u" + String(repeating: "0", count: max(0, 4 - digits.count)) + digits
  }

  /// Whether `scalar` is shown as an escape: C0, DEL and C1 controls (they drive a terminal), and
  /// the invisible format characters that make a line read otherwise than it is (Trojan Source):
  /// bidirectional embeddings, overrides, isolates and marks (U+202A...U+202E, U+2066...U+2069,
  /// U+200E, U+200F, U+061C), zero-width and invisible characters (U+200B, U+2060...U+2065,
  /// U+FEFF, U+180E, U+00AD, U+206A...U+206F, U+FFF9...U+FFFB) and the line and paragraph
  /// separators U+2028, U+2029. Joiners (U+200C, U+200D) and variation selectors stay: they shape
  /// emoji and scripts and cannot reorder a line.
  package static func hides(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.value {
    case 0..<0x20, 0x7F...0x9F, 0xAD, 0x61C, 0x180E, 0x200B, 0x200E, 0x200F, 0x2028...0x202E,
      0x2060...0x206F, 0xFEFF, 0xFFF9...0xFFFB:
      true
    default: false
    }
  }

  /// Whether `byte` can start the UTF-8 of a scalar that ``hides(_:)`` escapes: a test of each
  /// byte that lets text without any pass untouched.
  package static func mayHide(_ byte: UInt8) -> Bool {
    byte < 0x20 || byte == 0x7F || byte == 0xC2 || byte == 0xD8 || byte == 0xE1 || byte == 0xE2
      || byte == 0xEF
  }
}
