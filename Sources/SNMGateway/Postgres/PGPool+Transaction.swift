extension PGPool {
  /// Runs `body` in one transaction on a pooled connection, as `role` when one is given.
  ///
  /// ```swift
  /// let uid = try pool.transaction(as: RequestRole(role: "authenticated", claims: claims)) { tx in
  ///   try tx.execute("select auth.uid()").scalar
  /// }
  /// // One round trip, one implicit transaction (REST's reads and writes):
  /// let rows = try pool.transaction(as: role, begin: nil) { tx in try tx.pipeline(statements) }
  /// ```
  /// `begin` (then `role.prelude`, then `more`) is sent in the same round trip as the body's first
  /// statements (`PGTransaction`). Commits when `body` returns (unless it committed or rolled
  /// back itself), rolls back when it or the commit throws. With `begin: nil` there is no explicit
  /// transaction: the body sends everything in one `pipeline`, whose single sync makes it one
  /// implicit transaction, committed when all its statements succeed. Without a role the
  /// transaction runs as the pool's own user. Throws `PGError` or `body`'s error.
  public func transaction<T>(
    as role: RequestRole?, begin: String? = "begin", then more: [PGStatement] = [],
    interrupt: PGInterrupt? = nil, _ body: (PGTransaction) throws -> T
  ) throws -> T {
    let prelude = Self.opening(as: role, begin: begin, then: more)
    return try withConnection { connection in
      let transaction = PGTransaction(
        connection: connection, prelude: prelude, interrupt: interrupt)
      do {
        let value = try body(transaction)
        if begin != nil && transaction.prelude.isEmpty && !transaction.isFinished {
          _ = try connection.execute("commit")
        }
        return value
      } catch {
        if connection.isInTransaction { _ = try? connection.execute("rollback") }
        throw error
      }
    }
  }

  /// What a transaction sends before its body's statements: `begin`, the role's prelude, `more`.
  static func opening(
    as role: RequestRole?, begin: String?, then more: [PGStatement]
  ) -> [PGStatement] {
    var statements: [PGStatement] = []
    statements.reserveCapacity(2 + more.count)
    if let begin { statements.append(PGStatement(begin)) }
    if let role { statements.append(role.prelude) }
    statements.append(contentsOf: more)
    return statements
  }
}
