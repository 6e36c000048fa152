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
    // A line's secrets are found once for all the diagnostics on it (a long line is lexed whole).
    var secrets: (line: SourceRange, found: [SourceRange])?
    return diagnostics.sorted { $0.range.start < $1.range.start }
      .map { diagnostic in
        let line = source.lineRange(containing: diagnostic.range.start)
        if secrets?.line != line {
          secrets = (line, SecretMask.secrets(onLine: line, of: source))
        }
        return render(
          diagnostic, in: source, index: index, line: line, secrets: secrets?.found ?? [])
      }
      .joined()
  }

  /// One diagnostic: the location line, the source line, the caret, then help and notes.
  public func render(_ diagnostic: Diagnostic, in source: Source) -> String {
    let line = source.lineRange(containing: diagnostic.range.start)
    return render(
      diagnostic, in: source, index: LineIndex(source), line: line,
      secrets: SecretMask.secrets(onLine: line, of: source))
  }

  /// `diagnostic`, on `line` (without its line break) holding `secrets`.
  func render(
    _ diagnostic: Diagnostic, in source: Source, index: LineIndex, line: SourceRange,
    secrets: [SourceRange]
  ) -> String {
    let location = source.location(of: diagnostic.range.start, using: index)
    let file = Self.shown(source.fileName)
    var output = paint("\(file):\(location.line):\(location.column): ", .bold)
    output += paint("\(diagnostic.severity.rawValue):", color(for: diagnostic.severity))
    output += paint(" \(Self.shown(diagnostic.message.text))", .bold) + "\n"
    let shown = Self.excerpt(of: line, around: diagnostic.range, in: source, secrets: secrets)
    let (before, after) = (shown.start > line.start, shown.end < line.end)
    output += (before ? Self.cut + " " : "")
    output += Self.shown(SecretMask.text(of: shown, in: source, secrets: secrets))
    output += (after ? " " + Self.cut : "") + "\n"
    var caret = caretLine(for: diagnostic.range, line: shown, in: source, secrets: secrets)
    if before { caret = String(repeating: " ", count: Self.cut.utf8.count + 1) + caret }
    output += paint(caret, .green) + "\n"
    if before || after {
      // Counted as the column is, in characters.
      let left = source.text(of: SourceRange(start: line.start, end: shown.start)).count
      let right = source.text(of: SourceRange(start: shown.end, end: line.end)).count
      let cut =
        before && after
        ? "\(left) characters before the part shown and \(right) after it"
        : before
          ? "\(left) characters before the part shown" : "\(right) characters after the part shown"
      output += paint("note:", .cyan) + " line \(location.line) is long: \(cut) are left out\n"
    }
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

  /// What stands for the part of a long line left out of its excerpt, at either end.
  static let cut = "..."
  /// The most Unicode scalars of a line shown before a diagnostic's start, and from it on: a
  /// longer line is cut to them (a one-line script of 60 MB quoted whole, once and again under
  /// the caret as spaces, for every diagnostic on it).
  static let shownBefore = 60
  static let shownFrom = 120

  /// The part of `line` to show for a diagnostic at `range`: all of it when it is short, else
  /// ``shownBefore`` scalars before the range's start and ``shownFrom`` from it, grown so that
  /// no secret is cut in two (a secret prints as its mask, however long it is).
  static func excerpt(
    of line: SourceRange, around range: SourceRange, in source: Source, secrets: [SourceRange]
  ) -> SourceRange {
    let bytes = source.bytes
    let start = min(max(range.start, line.start), line.end)
    var from = start
    var scalars = 0
    // Back to the first byte of a scalar (never a UTF-8 continuation byte, 10xxxxxx).
    while from > line.start && scalars < shownBefore {
      from -= 1
      if bytes[from] & 0xC0 != 0x80 { scalars += 1 }
    }
    var to = start
    scalars = 0
    while to < line.end && scalars < shownFrom {
      to += 1
      while to < line.end && bytes[to] & 0xC0 == 0x80 { to += 1 }
      scalars += 1
    }
    return SecretMask.widened(SourceRange(start: from, end: to), by: secrets)
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
