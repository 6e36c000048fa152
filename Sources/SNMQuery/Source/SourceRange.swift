/// A half-open range of UTF-8 byte offsets into a `Source`.
///
/// Ranges are what the lexer, parser and checker record; line and column are computed from them only
/// when a diagnostic is printed (`Source.location(of:)`).
public struct SourceRange: Sendable, Hashable, CustomStringConvertible {
  /// The offset of the first byte.
  public var start: Int
  /// The offset one past the last byte.
  public var end: Int

  public init(start: Int, end: Int) {
    self.start = start
    self.end = max(start, end)
  }

  /// An empty range at `offset` (a point, as for "expected ... here").
  public static func point(_ offset: Int) -> SourceRange {
    SourceRange(start: offset, end: offset)
  }

  /// The number of bytes covered.
  public var length: Int { end - start }

  /// The smallest range covering both.
  public func union(_ other: SourceRange) -> SourceRange {
    SourceRange(start: min(start, other.start), end: max(end, other.end))
  }

  public var description: String { "\(start)..<\(end)" }
}
