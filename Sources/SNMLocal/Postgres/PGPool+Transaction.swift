extension PGPool {
  /// Runs `body` in one transaction as `auth.role`, with `request.jwt.claims` set (as PostgREST).
  ///
  /// ```swift
  /// let json = try pool.transaction(auth: auth, settings: [("request.method", "GET")]) { tx in
  ///   try tx.execute("select auth.uid()").scalar
  /// }
  /// ```
  /// Sends `BEGIN`, `select set_config('role', $1, true), set_config('request.jwt.claims', $2, true)`
  /// and each extra setting as transaction-local. Commits when `body` returns, rolls back when it
  /// throws (`readOnly` always rolls back, for GET/HEAD if wanted). Throws `PGError` or `body`'s error.
  public func transaction<T>(
    auth: RequestAuth, settings: [(String, String)] = [], readOnly: Bool = false,
    _ body: (PGTransaction) throws -> T
  ) throws -> T {
    var names = ["role", "request.jwt.claims"]
    var values: [String?] = [auth.role, auth.claimsJSON]
    for (name, value) in settings {
      names.append(name)
      values.append(value)
    }
    var calls: [String] = []
    var parameters: [String?] = []
    for (index, name) in names.enumerated() {
      calls.append("set_config($\(index * 2 + 1), $\(index * 2 + 2), true)")
      parameters.append(name)
      parameters.append(values[index])
    }
    let prelude = [
      PGStatement(readOnly ? "begin read only" : "begin"),
      PGStatement("select " + calls.joined(separator: ", "), parameters),
    ]
    return try withConnection { connection in
      let transaction = PGTransaction(connection: connection, prelude: prelude)
      do {
        let value = try body(transaction)
        if transaction.prelude.isEmpty && !transaction.isCommitted {
          _ = try connection.execute("commit")
        }
        return value
      } catch {
        if connection.isInTransaction { _ = try? connection.execute("rollback") }
        throw error
      }
    }
  }
}
