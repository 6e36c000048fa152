/// A transaction in progress on one pooled connection, handed to the body of `PGPool.transaction`.
///
/// ```swift
/// try pool.transaction(as: role) { tx in
///   try tx.execute("insert into t(a) values ($1)", ["x"])
///   return try tx.execute("select count(*) from t").scalar
/// }
/// ```
/// The first statement is sent in one round trip together with `BEGIN` and the role's prelude
/// (libpq pipeline mode). Throws `PGError`.
public final class PGTransaction {
  public let connection: PGConnection
  var prelude: [PGStatement]
  /// Cancels the statements sent through this transaction (not its commit or rollback).
  let interrupt: PGInterrupt?
  /// Set once the body committed or rolled back; later statements would run outside the
  /// transaction.
  public private(set) var isFinished = false

  init(connection: PGConnection, prelude: [PGStatement], interrupt: PGInterrupt? = nil) {
    self.connection = connection
    self.prelude = prelude
    self.interrupt = interrupt
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
  /// `knownCodeOnly`: they and the prelude run only Postgres's own functions and snm's own SQL
  /// (`PGConnection.ranOnlyKnownCode`).
  public func pipeline(
    _ statements: [PGStatement], knownCodeOnly: Bool = false
  ) throws(PGError) -> [PGResult] {
    try flushPrelude(with: statements, knownCodeOnly: knownCodeOnly)
  }

  /// Runs the last statement and `COMMIT` in the same round trip (saves one round trip).
  ///
  /// Use only when nothing after this statement may still decide to roll back. If the statement
  /// fails, the commit is skipped and the transaction rolls back. Throws `PGError`.
  public func executeAndCommit(_ statement: PGStatement) throws(PGError) -> PGResult {
    let results = try flushPrelude(with: [statement, PGStatement("commit")])
    isFinished = true
    return results[0]
  }

  /// Commits now (`Prefer: tx=commit` after a check of the first results). Throws `PGError`
  /// (a deferred constraint's violation).
  public func commit() throws(PGError) {
    _ = try finish(PGStatement("commit"))
    isFinished = true
  }

  /// Rolls back now (`Prefer: tx=rollback`), after checking deferred constraints when
  /// `checkingConstraints`. Throws `PGError` (a deferred constraint's violation).
  public func rollback(checkingConstraints: Bool = false) throws(PGError) {
    if checkingConstraints { _ = try finish(PGStatement("set constraints all immediate")) }
    _ = try finish(PGStatement("rollback"))
    isFinished = true
  }

  /// A statement that ends the transaction: not interrupted once the body's are done.
  func finish(_ statement: PGStatement) throws(PGError) -> PGResult {
    if prelude.isEmpty { return try connection.execute(statement) }
    return try flushPrelude(with: [statement])[0]
  }

  /// The connection, with the transaction begun (the prelude sent): for code that works on a
  /// `PGConnection` itself (Auth's). Throws `PGError`.
  public func begun() throws(PGError) -> PGConnection {
    if !prelude.isEmpty { _ = try flushPrelude(with: []) }
    return connection
  }

  func flushPrelude(
    with statements: [PGStatement], knownCodeOnly: Bool = false
  ) throws(PGError) -> [PGResult] {
    if prelude.isEmpty {
      return try connection.pipeline(
        statements, interrupt: interrupt, knownCodeOnly: knownCodeOnly)
    }
    let count = prelude.count
    let all = prelude + statements
    prelude = []
    let results = try connection.pipeline(
      all, interrupt: interrupt, knownCodeOnly: knownCodeOnly)
    return Array(results.dropFirst(count))
  }
}
