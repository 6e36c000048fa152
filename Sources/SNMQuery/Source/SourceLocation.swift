/// A 1-based line and column, as printed in `file:line:col`.
///
/// The column counts characters (extended grapheme clusters) from the start of the line, so a
/// Korean syllable or an emoji is one column, as an editor shows it.
public struct SourceLocation: Sendable, Hashable, CustomStringConvertible {
  public var line: Int
  public var column: Int

  public var description: String { "\(line):\(column)" }
}
