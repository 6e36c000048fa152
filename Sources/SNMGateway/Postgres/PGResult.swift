/// The rows of one statement, as text: column names and rows of optional strings (NULL is `nil`).
///
/// ```swift
/// let result = try connection.execute("select id, name from t where id = $1", ["1"])
/// result.columns        // ["id", "name"]
/// result.rows[0][1]     // Optional("Ann")
/// result.value(row: 0, column: "name")
/// ```
public struct PGResult: Sendable, Equatable {
  /// The column names, in order.
  public var columns: [String]
  /// The type OID of each column (25 text, 23 int4, 114 json, 3802 jsonb, ...).
  public var columnTypes: [UInt32]
  /// Each row's values in text form; `nil` for SQL NULL.
  public var rows: [[String?]]
  /// Rows affected for INSERT/UPDATE/DELETE/SELECT (libpq's `PQcmdTuples`), 0 when not reported.
  public var affectedRows: Int
  /// The command tag (`INSERT 0 1`, `SELECT 3`, `BEGIN`).
  public var commandTag: String
  /// With `PGResultForm.bytesColumn`: that column's bytes, one per row (nil for NULL); empty
  /// otherwise.
  public var columnBytes: [[UInt8]?] = []
  /// With `PGResultForm.cells`: libpq's result, its cells read in place (its names and types
  /// are there; `columns`, `columnTypes` and `rows` are empty).
  public var cells: PGCells?

  public init(
    columns: [String] = [], columnTypes: [UInt32] = [], rows: [[String?]] = [],
    affectedRows: Int = 0, commandTag: String = ""
  ) {
    self.columns = columns
    self.columnTypes = columnTypes
    self.rows = rows
    self.affectedRows = affectedRows
    self.commandTag = commandTag
  }

  /// The value at `row` in the column named `column`; `nil` when NULL or when there is no such cell.
  public func value(row: Int, column: String) -> String? {
    guard row >= 0, row < rows.count, let index = columns.firstIndex(of: column) else {
      return nil
    }
    return rows[row][index]
  }

  /// The first column of the first row, the usual shape of `select json_agg(...)`.
  public var scalar: String? {
    rows.first?.first ?? nil
  }
}
