import Testing

@testable import SNMGateway

/// `PGConnection.ranOnlyKnownCode` on the scratch cluster (`SNM_REST_TEST_PGHOST`, as the REST
/// database tests; skipped without it): true from the connection's opening while every statement
/// was declared known code, false for good after the first that was not, whichever way it was
/// sent (one statement, a pipeline, a transaction's pipeline, a script, a cursor's rows).
@Suite(.enabled(if: authStoreHost != nil)) struct KnownCodeTests {
  static let conninfo = "host=\(authStoreHost ?? "") user=postgres dbname=postgres"

  func connection() throws -> PGConnection {
    try PGConnection(conninfo: Self.conninfo)
  }

  @Test func statementsDeclaredKnownKeepTheConnectionKnown() throws {
    let connection = try connection()
    #expect(connection.ranOnlyKnownCode)
    _ = try connection.execute(PGStatement("select 1"), knownCodeOnly: true)
    _ = try connection.pipeline(
      [PGStatement("select 1", prepared: true), PGStatement("select 2")], knownCodeOnly: true)
    _ = try connection.pipeline([PGStatement("select 3")], knownCodeOnly: true)
    let pool = PGPool(conninfo: Self.conninfo, size: 1)
    let pooled = try pool.transaction(as: nil, begin: nil) { tx in
      _ = try tx.pipeline([PGStatement("select 1", prepared: true)], knownCodeOnly: true)
      return tx.connection.ranOnlyKnownCode
    }
    #expect(pooled)
    #expect(connection.ranOnlyKnownCode)
  }

  @Test func anyOtherStatementMarksTheConnectionForGood() throws {
    let sends: [(String, (PGConnection) throws -> Void)] = [
      ("execute", { _ = try $0.execute("select 1") }),
      ("pipeline", { _ = try $0.pipeline([PGStatement("select 1", prepared: true)]) }),
      ("single pipeline", { _ = try $0.pipeline([PGStatement("select 1")]) }),
      ("script", { try $0.executeScript("select 1; select 2") }),
      ("rows", { _ = try $0.forEachRow("select 1", interrupt: nil) { _ in } }),
    ]
    for (name, send) in sends {
      let connection = try connection()
      try send(connection)
      #expect(!connection.ranOnlyKnownCode, "\(name)")
      _ = try connection.pipeline([PGStatement("select 1")], knownCodeOnly: true)
      #expect(!connection.ranOnlyKnownCode, "\(name), then known code")
    }
  }
}
