import Testing

@testable import SNMQuery

/// A script's control characters print as escapes in a diagnostic (its line, message and help),
/// never as themselves: `snm check` of a file holding `ESC ] 0 ; ... BEL` retitled the terminal,
/// and `ESC [ 2 J` cleared it. Tabs stay, and the caret still lands under the spot.
@Suite struct DiagnosticControlTests {
  static func controls(_ text: String) -> [Unicode.Scalar] {
    text.unicodeScalars.filter {
      ($0.value < 0x20 && $0 != "\n" && $0 != "\t") || (0x7F...0x9F).contains($0.value)
    }
  }

  @Test func aControlCharacterInTheSourceIsShownNotSent() {
    let text = "from t\tselect id\u{1B}]0;owned\u{07}\u{1B}[2J order by id\u{85}"
    let source = Source(text: text, fileName: "x.snm")
    let diagnostic = Diagnostic(
      DiagnosticMessage(id: "test", "unexpected '\u{1B}'"), at: SourceRange(start: 16, end: 17),
      help: "not '\u{7F}'")
    let rendered = DiagnosticRenderer(colored: false).render([diagnostic], in: source)
    #expect(Self.controls(rendered).isEmpty, "\(rendered.debugDescription)")
    #expect(
      rendered == """
        x.snm:1:17: error: unexpected '\\u{1B}'
        from t\tselect id\\u{1B}]0;owned\\u{7}\\u{1B}[2J order by id\\u{85}
              \t         ^~~~~~
        help: not '\\u{7F}'

        """)
  }

  /// An unquoted name's help, typed as shown, names the same thing: a character the diagnostic
  /// shows as `\u{202E}` is written as the JSON escape a double-quoted name reads (`"\u{202E}"`
  /// typed is an invalid escape).
  @Test func theUnquotedNameHelpTypedAsShownNamesTheSameThing() throws {
    let script = Parser.parse(Source(text: "from t\u{202E}ab select *"))
    let help = try #require(script.diagnostics.first?.help)
    #expect(help == #"write "t\u202Eab""#)
    let typed = "from " + help.dropFirst("write ".count) + " select *"
    let outcome = RequestExplainer.explain(
      Source(text: typed), format: .json, url: "http://127.0.0.1:54321", scope: VariableScope())
    guard case .explained(let text) = outcome else {
      Issue.record("not explained: \(outcome)")
      return
    }
    #expect(text.contains(#""path":"/rest/v1/t%E2%80%AEab""#))
    #expect(DiagnosticMessage.writeQuoted("a\"b\\c") == #"write "a\"b\\c""#)
  }

  /// Trojan Source: a right-to-left override and isolates in a line make it read otherwise than
  /// it runs; the diagnostic shows them as escapes, and the caret still lands under the spot.
  @Test func aBidirectionalOverrideInTheSourceIsShownNotApplied() {
    let text = "from t select id \u{202E}\u{2066}-- x\u{2069}\u{2066} where"
    let source = Source(text: text, fileName: "x.snm")
    let diagnostic = Diagnostic(
      DiagnosticMessage(id: "test", "unexpected '\u{202E}'"), at: SourceRange(start: 23, end: 25))
    let rendered = DiagnosticRenderer(colored: false).render([diagnostic], in: source)
    #expect(
      rendered == """
        x.snm:1:20: error: unexpected '\\u{202E}'
        from t select id \\u{202E}\\u{2066}-- x\\u{2069}\\u{2066} where
                                         ^~

        """)
  }

  /// A token that is one escaped scalar is underlined as wide as its escape, eight columns, and
  /// one with a letter after it nine (b0a172b's note of a caret one column too wide miscounted).
  @Test func aLoneEscapedScalarIsUnderlinedAsWideAsItsEscape() {
    let source = Source(text: "from t select id \u{202E} x\u{202E}", fileName: "x.snm")
    let lone = Diagnostic(DiagnosticMessage(id: "test", "no"), at: SourceRange(start: 17, end: 20))
    let word = Diagnostic(DiagnosticMessage(id: "test", "no"), at: SourceRange(start: 21, end: 25))
    let renderer = DiagnosticRenderer(colored: false)
    let line = #"from t select id \u{202E} x\u{202E}"#
    #expect(
      renderer.render([lone], in: source).split(separator: "\n").dropFirst().joined(separator: "\n")
        == line + "\n" + String(repeating: " ", count: 17) + "^~~~~~~~")
    #expect(
      renderer.render([word], in: source).split(separator: "\n").dropFirst().joined(separator: "\n")
        == line + "\n" + String(repeating: " ", count: 26) + "^~~~~~~~~")
  }

  @Test func aLineWithoutControlCharactersPrintsAsWritten() {
    let source = Source(text: "from t select 두부,\tid 🐕", fileName: "x.snm")
    let diagnostic = Diagnostic(
      DiagnosticMessage(id: "test", "no"), at: SourceRange(start: 25, end: 29))
    #expect(
      DiagnosticRenderer(colored: false).render([diagnostic], in: source) == """
        x.snm:1:22: error: no
        from t select 두부,\tid 🐕
                           \t   ^~

        """)
  }
}
