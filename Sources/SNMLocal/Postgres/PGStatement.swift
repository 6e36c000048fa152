/// One parameterised statement: SQL with `$1`, `$2`, ... and the text of each parameter.
///
/// ```swift
/// let statement = PGStatement("select * from t where id = $1", ["42"])
/// ```
public struct PGStatement: Sendable, Equatable {
  public var sql: String
  /// Parameter values in text form; `nil` binds SQL NULL.
  public var parameters: [String?]

  public init(_ sql: String, _ parameters: [String?] = []) {
    self.sql = sql
    self.parameters = parameters
  }
}
