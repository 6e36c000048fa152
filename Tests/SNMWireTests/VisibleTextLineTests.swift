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
}
