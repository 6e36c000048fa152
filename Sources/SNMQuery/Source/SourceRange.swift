/// A half-open range of UTF-8 byte offsets into a `Source`.
///
/// Ranges are what the lexer, parser and checker record; line and column are computed from them only
/// when a diagnostic is printed (`Source.location(of:)`).
///
/// The offsets are kept as 32-bit numbers, as a `Token`'s are (a script is far below 4 GiB: files
/// are read up to 64 MiB): a range takes 8 bytes instead of 16, and every node of a statement's
/// tree holds several (a name, a value, a predicate, a select item), so a tree is that much less
/// memory to build, copy and free (`snm check` does all three for every statement).
public struct SourceRange: Sendable, Hashable, CustomStringConvertible {
  private var storedStart: UInt32
  private var storedEnd: UInt32

  /// The offset of the first byte.
  public var start: Int {
    get { Int(storedStart) }
    set { storedStart = UInt32(truncatingIfNeeded: newValue) }
  }

  /// The offset one past the last byte.
  public var end: Int {
    get { Int(storedEnd) }
    set { storedEnd = UInt32(truncatingIfNeeded: newValue) }
  }

  public init(start: Int, end: Int) {
    storedStart = UInt32(truncatingIfNeeded: start)
    storedEnd = UInt32(truncatingIfNeeded: max(start, end))
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
