/// One parameterised statement: SQL with `$1`, `$2`, ... and the text of each parameter.
///
/// ```swift
/// let statement = PGStatement("select * from t where id = $1", ["42"])
/// ```
public struct PGStatement: Sendable, Equatable {
  public var sql: String
  /// Parameter values in text form; `nil` binds SQL NULL.
  public var parameters: [String?]
  /// Prepare the SQL once per connection and reuse it (only in `pipeline`): for statements whose
  /// text repeats with different parameters, it saves the parse and plan of every execution.
  public var prepared: Bool
  /// How the result comes back (only in `pipeline`; `execute` always gives text).
  public var form: PGResultForm = .text

  public init(_ sql: String, _ parameters: [String?] = [], prepared: Bool = false) {
    self.sql = sql
    self.parameters = parameters
    self.prepared = prepared
  }
}

/// How a pipelined statement's result comes back.
public enum PGResultForm: Sendable, Equatable {
  /// Every cell as a Swift string (`PGResult.rows`).
  case text
  /// That column's values as bytes (`PGResult.columnBytes`, nil in `rows`): a JSON body is sent
  /// on as it came, without making a Swift string of it (whose UTF-8 check was the largest cost
  /// of a 10-row read) and turning that back into bytes.
  case bytesColumn(Int)
  /// libpq's result itself, read in place (`PGResult.cells`): no strings, no copy; rows the
  /// gateway writes as JSON itself.
  case cells
  /// Only whether it succeeded matters: its result comes back empty, its rows never read. A
  /// request's prelude sets the request's headers among other things, and making Swift strings
  /// of what it returns was a twentieth of a small read's CPU.
  case discarded
}
