/// The rows one request of a select asks for when snm pages it (`all`) or looks past the
/// server's row cap: how many, from where (counted after the statement's own `offset`), and the
/// columns added to its order so that the pages share no row and skip none.
///
/// ```swift
/// var compiler = StatementCompiler(manager: manager, scope: scope)
/// compiler.window = PageWindow(rows: 1000, offset: 2000, tiebreak: ["id"])
/// let third = try compiler.compile(statement)   // ...&order=id&limit=1000&offset=2000
/// ```
/// A statement with `all` and no window compiles as its first page (`explain`).
public struct PageWindow: Sendable, Equatable {
  /// The page size snm asks for: the row cap of hosted projects and of `snm local`.
  public static let defaultRows = 1000

  /// `limit`.
  public var rows: Int
  /// Added to the statement's `offset` (0 when it has none).
  public var offset: Int
  /// Columns ordered after the statement's own `order by` (ascending), the ones it already
  /// names left out: the primary key, so that equal values never trade places between pages.
  public var tiebreak: [String]

  public init(rows: Int, offset: Int = 0, tiebreak: [String] = []) {
    self.rows = rows
    self.offset = offset
    self.tiebreak = tiebreak
  }
}
