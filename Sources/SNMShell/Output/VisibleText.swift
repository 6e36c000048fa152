/// Text that came from outside (a server, another user's data) made safe to show: control
/// characters are written as escapes, so they can neither break a layout nor drive the terminal
/// (retitle the window, clear the screen, move the cursor, answer back).
///
/// ```swift
/// VisibleText.escaped("bio\u{1B}]0;owned\u{07}\u{1B}[2J")   // bio\u{1B}]0;owned\u{7}\u{1B}[2J
/// VisibleText.escaped("a\nb")                              // a\nb (the two characters \ and n)
/// VisibleText.escaped("a\nb", keepingNewlines: true)       // unchanged: two lines
/// ```
/// Escaped are C0 (below U+0020), DEL and C1 (U+0080...U+009F, U+009B being a one-character
/// CSI). Every place that prints what a server sent to a person uses this, and nothing else.
public enum VisibleText {
  /// `text` with control characters written as escapes (`\n`, `\t`, `\r`, `\u{1B}`); with
  /// `keepingNewlines`, line feeds stay (for messages of several lines).
  public static func escaped(_ text: String, keepingNewlines: Bool = false) -> String {
    guard scan(text, keepingNewlines: keepingNewlines).control else { return text }
    var out = ""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\n" where keepingNewlines: out.unicodeScalars.append(scalar)
      case "\n": out += "\\n"
      case "\t": out += "\\t"
      case "\r": out += "\\r"
      case _ where scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value):
        out += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
      default: out.unicodeScalars.append(scalar)
      }
    }
    return out
  }

  /// Whether `text` is all ASCII and whether it holds control characters (C0, DEL, or C1 as UTF-8
  /// `C2 80`...`C2 9F`; line feeds not counted with `keepingNewlines`), in one pass over its bytes.
  static func scan(_ text: String, keepingNewlines: Bool = false) -> (ascii: Bool, control: Bool) {
    func scan<C: Collection<UInt8>>(_ bytes: C) -> (ascii: Bool, control: Bool) {
      var ascii = true
      var control = false
      var previous: UInt8 = 0
      for byte in bytes {
        if byte >= 0x80 {
          ascii = false
          if previous == 0xC2 && byte <= 0x9F { control = true }
        } else if (byte < 0x20 && !(keepingNewlines && byte == 0x0A)) || byte == 0x7F {
          control = true
        }
        previous = byte
      }
      return (ascii, control)
    }
    return text.utf8.withContiguousStorageIfAvailable { scan($0) } ?? scan(text.utf8)
  }
}
