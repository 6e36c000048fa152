/// A transaction in progress on one pooled connection, handed to the body of `PGPool.transaction`.
///
/// ```swift
/// try pool.transaction(auth: auth) { tx in
///   try tx.execute("insert into t(a) values ($1)", ["x"])
///   return try tx.execute("select count(*) from t").scalar
/// }
/// ```
/// The first statement is sent in one round trip together with `BEGIN` and the `set_config` calls
/// (libpq pipeline mode). Throws `PGError`.
public final class PGTransaction {
  public let connection: PGConnection
  var prelude: [PGStatement]
  /// Set once `executeAndCommit` committed; later statements would run outside the transaction.
  public private(set) var isCommitted = false

  init(connection: PGConnection, prelude: [PGStatement]) {
    self.connection = connection
    self.prelude = prelude
  }

  /// Runs one parameterised statement inside the transaction. Throws `PGError`.
  public func execute(_ sql: String, _ parameters: [String?] = []) throws(PGError) -> PGResult {
    try execute(PGStatement(sql, parameters))
  }

  /// Runs one `PGStatement` inside the transaction. Throws `PGError`.
  public func execute(_ statement: PGStatement) throws(PGError) -> PGResult {
    try flushPrelude(with: [statement])[0]
  }

  /// Runs several statements in one round trip. Throws the first failing statement's `PGError`.
  public func pipeline(_ statements: [PGStatement]) throws(PGError) -> [PGResult] {
    try flushPrelude(with: statements)
  }

  /// Runs the last statement and `COMMIT` in the same round trip (saves one round trip).
  ///
  /// Use only when nothing after this statement may still decide to roll back. If the statement
  /// fails, the commit is skipped and the transaction rolls back. Throws `PGError`.
  public func executeAndCommit(_ statement: PGStatement) throws(PGError) -> PGResult {
    let results = try flushPrelude(with: [statement, PGStatement("commit")])
    isCommitted = true
    return results[0]
  }

  func flushPrelude(with statements: [PGStatement]) throws(PGError) -> [PGResult] {
    if prelude.isEmpty { return try connection.pipeline(statements) }
    let count = prelude.count
    let all = prelude + statements
    prelude = []
    let results = try connection.pipeline(all)
    return Array(results.dropFirst(count))
  }
}
