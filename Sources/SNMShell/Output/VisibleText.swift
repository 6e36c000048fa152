import SNMWire

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
/// CSI), and the invisible format characters that make a line read otherwise than it is:
/// bidirectional overrides and isolates (`\u{202E}`), zero-width spaces, a byte-order mark
/// (SNMWire's `VisibleTextLine.hides` lists them). Every place that prints what a server sent
/// to a person uses this, and nothing else; table, expanded and csv at a terminal too, where psql
/// prints them raw, and json and ndjson at a terminal in JSON's own escapes (``json(_:)``); to a
/// pipe or a file csv, json and ndjson are data: their bytes stay.
public enum VisibleText {
  /// `text` with control characters written as escapes (`\n`, `\t`, `\r`, `\u{1B}`); with
  /// `keepingNewlines`, line feeds stay (for messages of several lines).
  public static func escaped(_ text: String, keepingNewlines: Bool = false) -> String {
    guard scan(text, keepingNewlines: keepingNewlines).control else { return text }
    var out = ""
    VisibleTextLine.forEachScalar(of: text) { scalar, hidden in
      if scalar == "\n" && keepingNewlines || !hidden {
        out.unicodeScalars.append(scalar)
      } else {
        out += escape(scalar)
      }
    }
    return out
  }

  /// `text` as lines a person reads (a note, an echoed statement, a downloaded text): its line
  /// feeds and tabs as they are, and a CR right before a LF; every other character
  /// ``escaped(_:keepingNewlines:)`` escapes written as it writes it (a lone CR as `\r`: at a
  /// terminal it would take the cursor back and what follows would be printed over the line).
  ///
  /// ```swift
  /// VisibleText.lines("a\tb\r\nc\rd\u{1B}[2J")   // a<tab>b<CR><LF>c\rd\u{1B}[2J
  /// ```
  public static func lines(_ text: String) -> String {
    VisibleTextLine.escaped(text, keepingLines: true, tabs: true, as: escape)
  }

  /// `scalar` as its escape: `\n`, `\t`, `\r`, any other as `\u{1B}`.
  static func escape(_ scalar: Unicode.Scalar) -> String {
    switch scalar {
    case "\n": "\\n"
    case "\t": "\\t"
    case "\r": "\\r"
    default: VisibleTextLine.escape(scalar)
    }
  }

  /// JSON text as a terminal shows it: each character ``escaped(_:keepingNewlines:)`` escapes
  /// written as JSON's escape instead (`\u202e`, past U+FFFF its surrogate pair `\udb40\udc72`),
  /// so it reads as the same JSON value; text without any is returned as it is. JSON holds no
  /// raw control character below U+0020 in a string, and only ASCII outside one.
  ///
  /// ```swift
  /// VisibleText.json("{\"a\":\"x\u{202E}y\"}")   // {"a":"x\u202ey"}
  /// ```
  public static func json(_ text: String) -> String {
    VisibleTextLine.escapedJSON(text)
  }

  /// Whether `text` is all ASCII and whether it holds characters ``escaped(_:keepingNewlines:)``
  /// escapes (line feeds not counted with `keepingNewlines`), in one pass over its bytes (and a
  /// second over its scalars only when a byte may start an invisible format character).
  static func scan(_ text: String, keepingNewlines: Bool = false) -> (ascii: Bool, control: Bool) {
    func scan<C: Collection<UInt8>>(_ bytes: C) -> (ascii: Bool, control: Bool, format: Bool) {
      var ascii = true
      var control = false
      var format = false
      var previous: UInt8 = 0
      for byte in bytes {
        if byte >= 0x80 {
          ascii = false
          if previous == 0xC2 && byte <= 0x9F { control = true }
          // 0xF0 starts every emoji: only U+1BCA0... (F0 9B) and U+1D173... (F0 9D) may hide;
          // 0xE3 kana and ideographs: only U+3164 (E3 85); 0xCD Greek: only U+034F (CD 8F).
          if (byte != 0xC2 && byte != 0xF0 && byte != 0xE3 && byte != 0xCD
            && VisibleTextLine.mayHide(byte))
            || (previous == 0xC2 && byte == 0xAD)
            || (previous == 0xF0 && (byte == 0x9B || byte == 0x9D))
            || (previous == 0xE3 && byte == 0x85) || (previous == 0xCD && byte == 0x8F)
          {
            format = true
          }
        } else if (byte < 0x20 && !(keepingNewlines && byte == 0x0A)) || byte == 0x7F {
          control = true
        }
        previous = byte
      }
      return (ascii, control, format)
    }
    let found = text.utf8.withContiguousStorageIfAvailable { scan($0) } ?? scan(text.utf8)
    guard found.format, !found.control else { return (found.ascii, found.control) }
    let hidden = VisibleTextLine.hidesAny(text, from: 0x80)
    return (found.ascii, hidden)
  }
}
