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
  /// The column whose values come back as bytes (`PGResult.columnBytes`, nil in `rows`), only in
  /// `pipeline`: a JSON body is sent on as it came, without making a Swift string of it (whose
  /// UTF-8 check was the largest cost of a 10-row read) and turning that back into bytes.
  public var bytesColumn: Int?
  /// Only whether it succeeded matters (only in `pipeline`): its result comes back empty, its
  /// rows never read. A request's prelude echoes every `set_config` value (the request's headers
  /// among them), and making Swift strings of them was a twentieth of a small read's CPU.
  public var discardsRows = false

  public init(_ sql: String, _ parameters: [String?] = [], prepared: Bool = false) {
    self.sql = sql
    self.parameters = parameters
    self.prepared = prepared
  }
}
