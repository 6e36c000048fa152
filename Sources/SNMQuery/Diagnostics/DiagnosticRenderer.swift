import SNMWire

/// Prints diagnostics the way compilers do:
///
/// ```
/// script.snm:3:27: error: expected a value after 'gte'
/// from user_info select * where age gte
///                                      ^
/// help: write a value, as in 'age gte 3'
/// ```
/// Line and column are computed here, from the UTF-8 range. The caret line keeps the source line's
/// tabs and gives wide characters (Hangul, CJK, emoji) two columns, so the caret lands under the spot
/// in a terminal. A password written on the line prints as `'********'` (``SecretMask``); the
/// column still counts in the line as written, and the caret goes under the line as printed.
/// Control characters (but tabs) in the line, the messages and the file's name print as escapes
/// (`\u{1B}`): a script's bytes and a file's name never drive the terminal.
public struct DiagnosticRenderer: Sendable {
  /// Whether to color the output with ANSI escapes (a terminal without `--no-color`).
  public var colored: Bool

  public init(colored: Bool = false) {
    self.colored = colored
  }

  /// All diagnostics, each as a block, in source order.
  public func render(_ diagnostics: [Diagnostic], in source: Source) -> String {
    let index = LineIndex(source)
    return diagnostics.sorted { $0.range.start < $1.range.start }
      .map { render($0, in: source, index: index) }
      .joined()
  }

  /// One diagnostic: the location line, the source line, the caret, then help and notes.
  public func render(_ diagnostic: Diagnostic, in source: Source) -> String {
    render(diagnostic, in: source, index: LineIndex(source))
  }

  func render(_ diagnostic: Diagnostic, in source: Source, index: LineIndex) -> String {
    let location = source.location(of: diagnostic.range.start, using: index)
    let file = Self.shown(source.fileName)
    var output = paint("\(file):\(location.line):\(location.column): ", .bold)
    output += paint("\(diagnostic.severity.rawValue):", color(for: diagnostic.severity))
    output += paint(" \(Self.shown(diagnostic.message.text))", .bold) + "\n"
    let line = source.lineRange(containing: diagnostic.range.start)
    let secrets = SecretMask.secrets(onLine: line, of: source)
    output += Self.shown(SecretMask.text(of: line, in: source, secrets: secrets)) + "\n"
    let caret = caretLine(for: diagnostic.range, line: line, in: source, secrets: secrets)
    output += paint(caret, .green) + "\n"
    if let help = diagnostic.help {
      output += paint("help:", .cyan) + " \(Self.shown(help))\n"
    }
    for note in diagnostic.notes {
      let noteLocation = source.location(of: note.range.start, using: index)
      output += "\(file):\(noteLocation.line):\(noteLocation.column): "
      output += paint("note:", .cyan) + " \(Self.shown(note.message))\n"
    }
    return output
  }

  /// Spaces (and the line's own tabs) up to the range, then `^` and a `~` per further column, on
  /// the line as printed (with `secrets` masked; a range reaching into one covers all of it).
  func caretLine(
    for range: SourceRange, line: SourceRange, in source: Source, secrets: [SourceRange] = []
  ) -> String {
    let clamped = min(max(range.start, line.start), line.end)
    let shown = SecretMask.widened(
      SourceRange(start: clamped, end: max(clamped, min(range.end, line.end))), by: secrets)
    var caret = ""
    let before = SourceRange(start: line.start, end: shown.start)
    for character in Self.shown(SecretMask.text(of: before, in: source, secrets: secrets)) {
      if character == "\t" {
        caret += "\t"
      } else {
        caret += String(repeating: " ", count: DisplayWidth.of(character))
      }
    }
    let underlined = Self.shown(SecretMask.text(of: shown, in: source, secrets: secrets))
    let width = underlined.reduce(0) { $0 + DisplayWidth.of($1) }
    caret += "^" + String(repeating: "~", count: max(0, width - 1))
    return caret
  }

  /// `text` as printed: control characters but tabs (which the caret line keeps) and invisible
  /// format characters (a bidirectional override: Trojan Source) as escapes.
  static func shown(_ text: String) -> String {
    guard text.utf8.contains(where: { $0 != 0x09 && VisibleTextLine.mayHide($0) })
    else { return text }
    return text.split(separator: "\t", omittingEmptySubsequences: false)
      .map { VisibleTextLine.escaped(String($0)) }.joined(separator: "\t")
  }

  enum Style: String {
    case bold = "1"
    case red = "1;31"
    case yellow = "1;33"
    case cyan = "1;36"
    case green = "1;32"
  }

  func color(for severity: Diagnostic.Severity) -> Style {
    switch severity {
    case .error: .red
    case .warning: .yellow
    case .note: .cyan
    }
  }

  func paint(_ text: String, _ style: Style) -> String {
    colored ? "\u{1B}[\(style.rawValue)m\(text)\u{1B}[0m" : text
  }
}
