import Testing

@testable import SNMShell

/// The one escaping of text from outside: C0, DEL and C1 become visible, everything else stays.
@Suite struct VisibleTextTests {
  @Test func controlCharactersBecomeEscapes() {
    #expect(
      VisibleText.escaped("a\u{1B}]0;t\u{07}\u{1B}[2J\u{9B}31m\u{7F}\r\té")
        == #"a\u{1B}]0;t\u{7}\u{1B}[2J\u{9B}31m\u{7F}\r\té"#)
    #expect(VisibleText.escaped("two\nlines") == #"two\nlines"#)
    #expect(VisibleText.escaped("two\nlines\u{1B}", keepingNewlines: true) == "two\nlines\\u{1B}")
    #expect(VisibleText.escaped("plain é 漢字 \u{A0}") == "plain é 漢字 \u{A0}")
  }

  @Test func bidirectionalAndInvisibleFormatCharactersBecomeEscapes() {
    #expect(
      VisibleText.escaped("admin\u{202E}\u{2066}gnp.exe\u{2069}\u{200B}\u{FEFF}\u{AD}\u{61C}x")
        == #"admin\u{202E}\u{2066}gnp.exe\u{2069}\u{200B}\u{FEFF}\u{AD}\u{61C}x"#)
    #expect(VisibleText.escaped("— “q” 👩‍💻 ❤️ ZW\u{200D}J") == "— “q” 👩‍💻 ❤️ ZW\u{200D}J")
    #expect(VisibleText.scan("a\u{202E}b") == (ascii: false, control: true))
    #expect(VisibleText.scan("a\u{AD}b") == (ascii: false, control: true))
    #expect(VisibleText.scan("a — b") == (ascii: false, control: false))
    #expect(CellText(display: "x\u{202E}y").text == #"x\u{202E}y"#)
    // U+2065 (unassigned, default-ignorable) as the generated Swift's literals have it.
    #expect(VisibleText.escaped("a\u{2065}b") == #"a\u{2065}b"#)
  }

  /// Notes and echoed statements: lines and tabs as typed, a lone CR as `\r`, the rest escaped.
  @Test func linesKeepLayoutAndEscapeTheRest() {
    #expect(
      VisibleText.lines("a\tb\r\nc\rd\u{1B}]0;t\u{07}\u{202E}")
        == "a\tb\r\nc" + #"\rd\u{1B}]0;t\u{7}\u{202E}"#)
    #expect(VisibleText.lines("two\nlines\t") == "two\nlines\t")
  }

  @Test func theScanTellsASCIIAndControls() {
    #expect(VisibleText.scan("abc") == (ascii: true, control: false))
    #expect(VisibleText.scan("é") == (ascii: false, control: false))
    #expect(VisibleText.scan("a\u{85}") == (ascii: false, control: true))
    #expect(VisibleText.scan("a\n", keepingNewlines: true) == (ascii: true, control: false))
  }

  @Test func tagCharactersAreEscapedInCellsButAFlagStays() {
    let flag = "\u{1F3F4}\u{E0067}\u{E0062}\u{E0077}\u{E006C}\u{E0073}\u{E007F}"
    #expect(
      VisibleText.escaped("ok\u{E0072}\u{E006D}\t" + flag) == #"ok\u{E0072}\u{E006D}\t"# + flag)
    #expect(VisibleText.scan("ok\u{E0072}") == (ascii: false, control: true))
    #expect(VisibleText.scan("a\u{1D173}b") == (ascii: false, control: true))
    #expect(VisibleText.scan("go " + flag) == (ascii: false, control: false))
    #expect(VisibleText.scan("😀 𝐀 \u{845B}\u{E0100}") == (ascii: false, control: false))
    #expect(CellText(display: "ok\u{E0041}").text == #"ok\u{E0041}"#)
  }
}
