/// One token: its kind, its UTF-8 byte range, and the keyword it spells, if any.
public struct Token: Sendable, Hashable {
  public var kind: TokenKind
  /// The keyword a `.word` spells, compared case-insensitively; nil for other words and kinds.
  public var keyword: Keyword?
  public var start: Int
  public var end: Int
  public var flags: Flags

  public init(kind: TokenKind, keyword: Keyword? = nil, start: Int, end: Int, flags: Flags = []) {
    self.kind = kind
    self.keyword = keyword
    self.start = start
    self.end = end
    self.flags = flags
  }

  public var range: SourceRange { SourceRange(start: start, end: end) }

  /// Facts about a token that later stages would otherwise rescan for.
  public struct Flags: OptionSet, Sendable, Hashable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// The token is the first on its line.
    public static let atLineStart = Flags(rawValue: 1)
    /// Whitespace or a comment comes right before the token.
    public static let afterSpace = Flags(rawValue: 2)
    /// A quoted token holds escapes (`\` in double quotes, `''` in single quotes).
    public static let hasEscapes = Flags(rawValue: 4)
    /// A quoted token holds a `$` (it may interpolate variables).
    public static let hasDollar = Flags(rawValue: 8)
    /// The token begins inside an unclosed `(`, `[` or `{`.
    public static let insideBrackets = Flags(rawValue: 16)
  }
}
