import SNMWire

/// Swift spellings of database names that always compile: keywords escaped, names that Swift
/// cannot spell at all renamed, and string literals with every quote, backslash and control
/// character escaped.
///
/// ```swift
/// SwiftName.type("user_status")      // "UserStatus"
/// SwiftName.member("default")        // "`default`"
/// SwiftName.member("2fa code")       // "_2faCode"
/// SwiftName.literal("say \"hi\"")    // "\"say \\\"hi\\\"\""
/// ```
public enum SwiftName {
  /// Words Swift reserves everywhere: a declaration named so needs backticks.
  static let keywords: Set<String> = [
    "associatedtype", "borrowing", "class", "consuming", "deinit", "enum", "extension",
    "fileprivate", "func", "import", "init", "inout", "internal", "let", "nonisolated", "open",
    "operator", "private", "precedencegroup", "protocol", "public", "rethrows", "static", "struct",
    "subscript", "typealias", "var", "break", "case", "catch", "continue", "default", "defer", "do",
    "else", "fallthrough", "for", "guard", "if", "in", "repeat", "return", "throw", "switch",
    "where", "while", "Any", "as", "await", "false", "is", "nil", "self", "Self", "super", "throws",
    "true", "try", "some", "any", "async", "actor", "macro", "package",
  ]

  /// Names backticks do not rescue in every position (`x.self`, `T.Type`, `init`): renamed with a
  /// trailing `_`.
  static let unusable: Set<String> = [
    "self", "Self", "init", "deinit", "subscript", "super", "Type", "Protocol", "_", "Any",
    "hashValue", "CodingKeys", "Columns",
  ]

  /// A type name: words capitalised and joined (`user_status` -> `UserStatus`).
  public static func type(_ name: String) -> String {
    let words = SwiftName.words(name)
    let joined = words.map { capitalized($0) }.joined()
    return finished(joined.isEmpty ? "Unnamed" : joined)
  }

  /// A property or case name, unescaped: the first word lower-case, the others capitalised
  /// (`created_at` -> `createdAt`, `URL` -> `url`).
  public static func memberWord(_ name: String) -> String {
    let words = SwiftName.words(name)
    guard let first = words.first else { return "value" }
    let head = first.allSatisfy { !$0.isLowercase } ? first.lowercased() : lowerFirst(first)
    let joined = head + words.dropFirst().map { capitalized($0) }.joined()
    return finished(joined)
  }

  /// `word` as it is written in a declaration or an expression: backticks around a keyword.
  public static func escaped(_ word: String) -> String {
    keywords.contains(word) ? "`\(word)`" : word
  }

  /// ``memberWord(_:)`` escaped.
  public static func member(_ name: String) -> String { escaped(memberWord(name)) }

  /// A digit first gets `_` before it; a name backticks cannot rescue gets `_` after it.
  static func finished(_ word: String) -> String {
    var word = word
    if let first = word.unicodeScalars.first, !isIdentifierHead(first) { word = "_" + word }
    if unusable.contains(word) { word += "_" }
    return word
  }

  /// The parts of `name` Swift can spell, split where it cannot (`_`, spaces, quotes, dashes)
  /// and at every character a reader of the code would not see as itself (``forEachScalar(of:_:)``:
  /// U+202E, a tag character, a run of variation selectors, U+200C), as at a space. A variation
  /// selector stays only right after the character it modifies, in the same word.
  static func words(_ name: String) -> [String] {
    var words: [String] = []
    var current = String.UnicodeScalarView()
    forEachScalar(of: name) { scalar, hidden in
      let value = scalar.value
      // The zero-width joiner stays: it holds an emoji sequence (a name of its own) together.
      if (!hidden || value == 0x200D), scalar != "_", isIdentifierBody(scalar),
        !current.isEmpty || !VisibleTextLine.isSelector(value)
      {
        current.append(scalar)
      } else if !current.isEmpty {
        words.append(String(current))
        current = String.UnicodeScalarView()
      }
    }
    if !current.isEmpty { words.append(String(current)) }
    return words
  }

  static func capitalized(_ word: String) -> String {
    guard let first = word.first else { return word }
    return first.uppercased() + word.dropFirst()
  }

  static func lowerFirst(_ word: String) -> String {
    guard let first = word.first else { return word }
    return first.lowercased() + word.dropFirst()
  }

  /// Whether Swift accepts `scalar` first in an identifier (ASCII letters, `_`, and the Unicode
  /// ranges of N1518's annex X.1 without its combining marks, as Swift's lexer has them).
  static func isIdentifierHead(_ scalar: Unicode.Scalar) -> Bool {
    let value = scalar.value
    if value < 0x80 {
      return (0x41...0x5A).contains(value) || (0x61...0x7A).contains(value) || value == 0x5F
    }
    let combining: [ClosedRange<UInt32>] = [
      0x0300...0x036F, 0x1DC0...0x1DFF, 0x20D0...0x20FF, 0xFE20...0xFE2F,
    ]
    return isIdentifierBody(scalar) && !combining.contains { $0.contains(value) }
  }

  /// Whether Swift accepts `scalar` after the first character of an identifier. Invisible and
  /// direction-changing characters Swift would accept are split at (``words(_:)``): in source
  /// they make a name read as something it is not.
  static func isIdentifierBody(_ scalar: Unicode.Scalar) -> Bool {
    let value = scalar.value
    if value < 0x80 {
      return (0x41...0x5A).contains(value) || (0x61...0x7A).contains(value)
        || (0x30...0x39).contains(value) || value == 0x5F
    }
    return allowedRanges.contains { $0.contains(value) }
  }

  static let allowedRanges: [ClosedRange<UInt32>] = [
    0x00A8...0x00A8, 0x00AA...0x00AA, 0x00AD...0x00AD, 0x00AF...0x00AF, 0x00B2...0x00B5,
    0x00B7...0x00BA, 0x00BC...0x00BE, 0x00C0...0x00D6, 0x00D8...0x00F6, 0x00F8...0x00FF,
    0x0100...0x167F, 0x1681...0x180D, 0x180F...0x1FFF, 0x200B...0x200D, 0x202A...0x202E,
    0x203F...0x2040, 0x2054...0x2054, 0x2060...0x206F, 0x2070...0x218F, 0x2460...0x24FF,
    0x2776...0x2793, 0x2C00...0x2DFF, 0x2E80...0x2FFF, 0x3004...0x3007, 0x3021...0x302F,
    0x3031...0x303F, 0x3040...0xD7FF, 0xF900...0xFD3D, 0xFD40...0xFDCF, 0xFDF0...0xFE1F,
    0xFE30...0xFE44, 0xFE47...0xFFFD, 0x10000...0x1FFFD, 0x20000...0x2FFFD, 0x30000...0x3FFFD,
    0x40000...0x4FFFD, 0x50000...0x5FFFD, 0x60000...0x6FFFD, 0x70000...0x7FFFD,
    0x80000...0x8FFFD, 0x90000...0x9FFFD, 0xA0000...0xAFFFD, 0xB0000...0xBFFFD,
    0xC0000...0xCFFFD, 0xD0000...0xDFFFD, 0xE0000...0xEFFFD,
  ]

  /// `text` as a Swift string literal, quotes included: every character a reader of the code
  /// would not see as itself (``forEachScalar(of:_:)``) written as `\u{..}` (the same string).
  public static func literal(_ text: String) -> String {
    var out = "\""
    forEachScalar(of: text) { scalar, hidden in
      switch scalar {
      case "\\": out += "\\\\"
      case "\"": out += "\\\""
      case "\n": out += "\\n"
      case "\r": out += "\\r"
      case "\t": out += "\\t"
      case "\0": out += "\\0"
      default: out += hidden ? escaped(scalar) : String(scalar)
      }
    }
    return out + "\""
  }

  /// `text` as `///` lines, indented; a character a reader of the code would not see as itself
  /// (``forEachScalar(of:_:)``) is shown as `\u{..}`, so a comment's text can neither seem to end
  /// the line (U+2028, NEL) nor hide or reorder what follows (Trojan Source, CVE-2021-42574).
  public static func docComment(_ text: String?, indent: String) -> String {
    guard let text, !text.isEmpty else { return "" }
    return text.split(separator: "\n", omittingEmptySubsequences: false).map { line in
      let shown = shown(line)
      return indent + "///" + (shown.isEmpty ? "" : " " + shown) + "\n"
    }.joined()
  }

  /// `text` with every character a reader of the code would not see as itself
  /// (``forEachScalar(of:_:)``) written as `\u{..}`.
  public static func shown(_ text: some StringProtocol) -> String {
    var out = ""
    forEachScalar(of: String(text)) { scalar, hidden in
      out += hidden ? escaped(scalar) : String(scalar)
    }
    return out
  }

  /// Calls `body` with each scalar of `text` and whether a reader of the code is shown it as
  /// `\u{..}`: what a terminal line escapes (SNMWire's one walk, `VisibleTextLine.forEachScalar`:
  /// control characters, line and paragraph separators, the invisible and direction-changing
  /// characters, a run of variation selectors or one after no base it modifies), and the joiners
  /// U+200C and U+200D: a terminal shows them by their effect, but in a literal or a comment a
  /// reader of the code must see every character the string holds; so must they a selector
  /// U+FE00...U+FE0F after a letter or a digit (``showsSelector(after:)``).
  static func forEachScalar(of text: String, _ body: (Unicode.Scalar, Bool) -> Void) {
    var previous: Unicode.Scalar?
    VisibleTextLine.forEachScalar(of: text) { scalar, hidden in
      let value = scalar.value
      let unseen =
        (0xFE00...0xFE0F).contains(value) && !(previous.map(Self.showsSelector(after:)) ?? false)
      body(scalar, hidden || value == 0x200C || value == 0x200D || unseen)
      previous = scalar
    }
  }

  /// Whether a variation selector U+FE00...U+FE0F right after `base` changes what a reader of
  /// the code sees: after an emoji past ASCII (text or emoji presentation, `❤️`) or an ideograph
  /// (a registered glyph). After a letter (`é` U+FE0F), a digit or anything else it shows
  /// nothing, and `café` U+FE0F would read as `café`: escaped, and a name splits there.
  static func showsSelector(after base: Unicode.Scalar) -> Bool {
    base.value >= 0x80 && (base.properties.isEmoji || VisibleTextLine.isIdeograph(base.value))
  }

  static func escaped(_ scalar: Unicode.Scalar) -> String {
    "\\u{\(String(scalar.value, radix: 16))}"
  }
}
