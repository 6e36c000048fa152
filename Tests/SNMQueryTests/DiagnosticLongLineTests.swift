import Testing

@testable import SNMQuery

/// A diagnostic on a long line quotes the part around its column, not the whole line: a one-line
/// script of 60 MB wrote about 360 MB to standard error (the line, and the caret line's spaces
/// under it, for each of its diagnostics). What is left out is said, the caret stays under the
/// spot, control characters stay escaped and no secret is cut in two.
@Suite struct DiagnosticLongLineTests {
  static let renderer = DiagnosticRenderer(colored: false)

  static func diagnostic(at start: Int, length: Int) -> Diagnostic {
    Diagnostic(
      DiagnosticMessage(id: "test", "no"), at: SourceRange(start: start, end: start + length))
  }

  @Test func aLongLineIsCutAroundTheColumnAndSaysWhatWasLeftOut() {
    let head = String(repeating: "x", count: 1_000_000) + " \u{1B}[2J from where "
    let text = head + "nonsense " + String(repeating: "y", count: 1_000_000)
    let source = Source(text: text, fileName: "x.snm")
    let rendered = Self.renderer.render(
      [Self.diagnostic(at: head.utf8.count, length: 8)], in: source)
    // The 60 characters before the spot (ESC one of them), the 120 from it on.
    let before = String(String.UnicodeScalarView(head.unicodeScalars.suffix(60)))
    let shownBefore = before.replacingOccurrences(of: "\u{1B}", with: "\\u{1B}")
    let from = "nonsense " + String(repeating: "y", count: 111)
    let column = head.count + 1
    #expect(
      rendered == """
        x.snm:1:\(column): error: no
        ... \(shownBefore)\(from) ...
        \(String(repeating: " ", count: 4 + shownBefore.count))^~~~~~~~
        note: line 1 is long: \(head.count - 60) characters before the part shown and \
        \(text.count - head.count - 120) after it are left out

        """)
  }

  @Test func eachEndIsCutOnlyWhenTheLineGoesOnThere() {
    let text = "from t select " + String(repeating: "a", count: 500)
    let source = Source(text: text, fileName: "x.snm")
    let atStart = Self.renderer.render([Self.diagnostic(at: 0, length: 4)], in: source)
    #expect(atStart.split(separator: "\n")[1].hasPrefix("from t select aaa"))
    #expect(atStart.split(separator: "\n")[1].hasSuffix("aaa ..."))
    #expect(atStart.split(separator: "\n")[2] == "^~~~")
    #expect(atStart.contains("note: line 1 is long: 394 characters after the part shown are"))
    let atEnd = Self.renderer.render(
      [Self.diagnostic(at: text.utf8.count - 1, length: 1)], in: source)
    #expect(atEnd.split(separator: "\n")[1] == "... " + String(repeating: "a", count: 61))
    #expect(atEnd.split(separator: "\n")[2] == String(repeating: " ", count: 64) + "^")
    #expect(atEnd.contains("note: line 1 is long: 453 characters before the part shown are"))
  }

  /// A cut never falls inside a character's bytes, and a password the cut would split prints
  /// as its mask, whole.
  @Test func aCutKeepsCharactersAndSecretsWhole() {
    let password = String(repeating: "p", count: 300)
    let line =
      "login email 'a@b.c' password '\(password)' " + String(repeating: "두", count: 300)
      + " oops"
    let source = Source(text: line, fileName: "x.snm")
    let oops = line.utf8.count - 4
    let late = Self.renderer.render([Self.diagnostic(at: oops, length: 4)], in: source)
    #expect(!late.contains("\u{FFFD}"))
    #expect(late.contains("... " + String(repeating: "두", count: 59) + " oops\n"))
    // 59 wide characters and a space before the caret.
    #expect(late.contains("\n" + String(repeating: " ", count: 4 + 118 + 1) + "^~~~\n"))
    let inSecret = line.utf8.count - 4 - 300 * 3 - 1 - 1 - 150
    let masked = Self.renderer.render([Self.diagnostic(at: inSecret, length: 1)], in: source)
    #expect(!masked.contains("ppp"), "\(masked)")
    // All of the secret is the part shown, its mask underlined.
    #expect(masked.contains("\n... '********' ...\n    ^~~~~~~~~~\n"), "\(masked)")
  }

  /// Many diagnostics on one long line: each is bounded, so the whole is too.
  @Test func manyDiagnosticsOnALongLineStayBounded() {
    let text = String(repeating: "from where x; ", count: 20_000)
    let script = Parser.parse(Source(text: text, fileName: "x.snm"))
    let diagnostics = Array(script.diagnostics.prefix(50))
    let rendered = Self.renderer.render(diagnostics, in: script.source)
    #expect(diagnostics.count == 50)
    #expect(rendered.utf8.count < 50 * 1_000)
  }
}
