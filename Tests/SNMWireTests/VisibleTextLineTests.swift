import Testing

@testable import SNMWire

/// Past U+FFFF: the invisible tag characters (ASCII smuggling) and format characters are escaped
/// as those below it are; a subdivision flag and the variation selectors supplement stay.
@Suite struct VisibleTextLineTests {
  static let scotland = "\u{1F3F4}\u{E0067}\u{E0062}\u{E0073}\u{E0063}\u{E0074}\u{E007F}"

  @Test func tagCharactersAreEscaped() {
    #expect(VisibleTextLine.escaped("ok\u{E0072}\u{E006D}") == #"ok\u{E0072}\u{E006D}"#)
    #expect(VisibleTextLine.escaped("\u{E0001}en") == #"\u{E0001}en"#)
    #expect(VisibleTextLine.escaped("a\u{1D173}b\u{1BCA0}") == #"a\u{1D173}b\u{1BCA0}"#)
    #expect(
      VisibleTextLine.escaped("\u{E0000}\u{E0080}\u{E01F0}") == #"\u{E0000}\u{E0080}\u{E01F0}"#)
    #expect(VisibleTextLine.hidesAny("ok\u{E0041}"))
  }

  @Test func aSubdivisionFlagStays() {
    let flag = Self.scotland
    #expect(VisibleTextLine.escaped("go " + flag + "!") == "go " + flag + "!")
    #expect(!VisibleTextLine.hidesAny(flag + flag))
    // Not a flag: tags without their U+1F3F4, without U+E007F, too few, too many, not a-z0-9.
    #expect(
      VisibleTextLine.escaped(String(flag.unicodeScalars.dropFirst())).hasPrefix(#"\u{E0067}"#))
    #expect(
      VisibleTextLine.escaped("\u{1F3F4}\u{E0067}\u{E0062}\u{E0073}x")
        == #"🏴\u{E0067}\u{E0062}\u{E0073}x"#)
    #expect(
      VisibleTextLine.escaped("\u{1F3F4}\u{E0067}\u{E0062}\u{E007F}")
        == #"🏴\u{E0067}\u{E0062}\u{E007F}"#)
    let long = "\u{1F3F4}" + String(repeating: "\u{E0061}", count: 8) + "\u{E007F}"
    #expect(VisibleTextLine.hidesAny(long))
    #expect(VisibleTextLine.hidesAny("\u{1F3F4}\u{E0047}\u{E0042}\u{E0053}\u{E007F}"))
    #expect(VisibleTextLine.escaped("\u{1F3F4}") == "\u{1F3F4}")
  }

  @Test func variationSelectorsEmojiAndHieroglyphControlsStay() {
    let text = "\u{845B}\u{E0100} \u{845B}\u{E01EF} ❤️ 👩‍💻 \u{13000}\u{13430}\u{13001} 𝐀"
    #expect(VisibleTextLine.escaped(text) == text)
  }

  @Test func jsonEscapesPastUFFFFAreSurrogatePairs() throws {
    let text = #"{"a":"ok"# + "\u{E0041}" + Self.scotland + #""}"#
    let escaped = VisibleTextLine.escapedJSON(text)
    #expect(escaped == #"{"a":"ok\udb40\udc41"# + Self.scotland + #""}"#)
    #expect(try JSONValue(parsing: escaped) == JSONValue(parsing: text))
  }

  /// A variation selector stays right after a base it can modify (an emoji, a symbol, an
  /// ideograph's registered glyph, a keycap's digit); a run of them after one character (each a
  /// hidden byte: variation-selector smuggling), one after a letter of ASCII, a joiner, an escape
  /// or nothing is escaped.
  @Test func aVariationSelectorStaysOnlyAfterABaseItModifies() throws {
    let kept = "❤️ #️⃣ 0\u{FE00} \u{2229}\u{FE00} ✌\u{FE0E} \u{845B}\u{E0100} 👍🏽 👩‍💻"
    #expect(VisibleTextLine.escaped(kept) == kept)
    #expect(VisibleTextLine.escaped("ok\u{FE01}\u{FE02}") == #"ok\u{FE01}\u{FE02}"#)
    #expect(VisibleTextLine.escaped("😀\u{FE0F}\u{FE0F}") == #"😀\#u{FE0F}\u{FE0F}"#)
    #expect(VisibleTextLine.escaped("😀\u{E0101}") == #"😀\u{E0101}"#)
    #expect(VisibleTextLine.escaped("\u{845B}\u{E0100}\u{E0101}") == #"葛\#u{E0100}\u{E0101}"#)
    #expect(VisibleTextLine.escaped("\u{FE0F}a\u{200D}\u{FE0F}") == #"\u{FE0F}a\#u{200D}\u{FE0F}"#)
    #expect(VisibleTextLine.escaped("\u{202E}\u{FE0F}") == #"\u{202E}\u{FE0F}"#)
    #expect(VisibleTextLine.escaped(Self.scotland + "\u{FE0F}") == Self.scotland + #"\u{FE0F}"#)
    // "rm" as two selectors after one visible character, a byte each (0x72 and 0x6D).
    let smuggled = "a\u{E0162}\u{E015D}"
    #expect(VisibleTextLine.hidesAny(smuggled))
    let json = #"{"a":""# + smuggled + #""}"#
    #expect(VisibleTextLine.escapedJSON(json) == #"{"a":"a\udb40\udd62\udb40\udd5d"}"#)
    #expect(try JSONValue(parsing: VisibleTextLine.escapedJSON(json)) == JSONValue(parsing: json))
    #expect(ShellWord.quoted("ok\u{FE01}") == #"$'ok\xEF\xB8\x81'"#)
    #expect(ShellWord.quoted("❤️") == "'❤️'")
  }

  /// Unicode 15's Default_Ignorable_Code_Point (DerivedCoreProperties.txt), range by range: each
  /// code point between two letters is escaped, but the joiners (they shape emoji and scripts)
  /// and a variation selector right after a base it modifies (U+FE0F after an emoji, a
  /// Mongolian free variation selector after a Mongolian letter).
  @Test func everyDefaultIgnorableIsEscapedButTheJoiners() {
    let ignorable: [ClosedRange<UInt32>] = [
      0xAD...0xAD, 0x34F...0x34F, 0x61C...0x61C, 0x115F...0x1160, 0x17B4...0x17B5,
      0x180B...0x180D, 0x180E...0x180E, 0x180F...0x180F, 0x200B...0x200F, 0x202A...0x202E,
      0x2060...0x2064, 0x2065...0x2065, 0x2066...0x206F, 0x3164...0x3164, 0xFE00...0xFE0F,
      0xFEFF...0xFEFF, 0xFFA0...0xFFA0, 0xFFF0...0xFFF8, 0x1BCA0...0x1BCA3, 0x1D173...0x1D17A,
      0xE0000...0xE0000, 0xE0001...0xE0001, 0xE0002...0xE001F, 0xE0020...0xE007F,
      0xE0080...0xE00FF, 0xE0100...0xE01EF, 0xE01F0...0xE0FFF,
    ]
    var raw: [String] = []
    for range in ignorable {
      for value in range where value != 0x200C && value != 0x200D {
        let text = "a" + String(Unicode.Scalar(value)!) + "b"
        let escaped = VisibleTextLine.escaped(text)
        if escaped != "a" + VisibleTextLine.escape(Unicode.Scalar(value)!) + "b" {
          raw.append(String(value, radix: 16))
        }
      }
    }
    #expect(raw == [])
    #expect(VisibleTextLine.escaped("a\u{200C}b\u{200D}c") == "a\u{200C}b\u{200D}c")
    // A Mongolian letter's form: one free variation selector stays, a second is escaped.
    #expect(VisibleTextLine.escaped("\u{1820}\u{180B}\u{180B}") == #"\#u{1820}\#u{180B}\u{180B}"#)
  }

  /// Text a person reads as lines (a note, an echoed statement, a log line): line feeds, tabs
  /// and a CRLF line end as they are when kept; a lone CR, and what the walk hides, escaped.
  @Test func linesAndTabsAreKeptWhereAskedAndALoneCarriageReturnIsEscaped() {
    let text = "a\tb\r\nc\rd\u{1B}[2J\u{202E}e\r"
    #expect(
      VisibleTextLine.escaped(text, keepingLines: true, tabs: true)
        == "a\tb\r\nc" + #"\u{D}d\u{1B}[2J\u{202E}e\u{D}"#)
    #expect(
      VisibleTextLine.escaped(text, keepingLines: false, tabs: true)
        == "a\tb" + #"\u{D}\u{A}c\u{D}d\u{1B}[2J\u{202E}e\u{D}"#)
    #expect(
      VisibleTextLine.escaped(text, keepingLines: true, tabs: false)
        == #"a\u{9}b"# + "\r\nc" + #"\u{D}d\u{1B}[2J\u{202E}e\u{D}"#)
    #expect(VisibleTextLine.escaped("a\tb\nc", keepingLines: true, tabs: true) == "a\tb\nc")
  }
}
