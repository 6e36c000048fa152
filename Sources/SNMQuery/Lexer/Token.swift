/// One token: its kind, its UTF-8 byte range, and the keyword it spells, if any.
///
/// Offsets are kept as 32-bit numbers: a token takes 12 bytes instead of 32, which matters for a
/// 100,000-statement script (two million tokens). Scripts are far below 4 GiB.
public struct Token: Sendable, Hashable {
  private var storedStart: UInt32
  private var storedEnd: UInt32
  public var kind: TokenKind
  /// The keyword a `.word` spells, compared case-insensitively; nil for other words and kinds.
  public var keyword: Keyword?
  public var flags: Flags

  public init(kind: TokenKind, keyword: Keyword? = nil, start: Int, end: Int, flags: Flags = []) {
    self.kind = kind
    self.keyword = keyword
    self.storedStart = UInt32(truncatingIfNeeded: start)
    self.storedEnd = UInt32(truncatingIfNeeded: end)
    self.flags = flags
  }

  /// The UTF-8 offset of the first byte.
  public var start: Int {
    get { Int(storedStart) }
    set { storedStart = UInt32(truncatingIfNeeded: newValue) }
  }

  /// The UTF-8 offset just past the last byte.
  public var end: Int {
    get { Int(storedEnd) }
    set { storedEnd = UInt32(truncatingIfNeeded: newValue) }
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
