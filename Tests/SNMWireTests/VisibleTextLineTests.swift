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
}
