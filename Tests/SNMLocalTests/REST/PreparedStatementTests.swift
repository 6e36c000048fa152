import Testing

@testable import SNMGateway
@testable import SNMLocal
@testable import SNMLocalREST

extension GatewayDatabaseTests {
  /// `PGStatement.prepared` in pipelines: prepared once per connection, reused, and safe when a
  /// statement of the pipeline fails.
  @Suite final class PreparedStatements {
    let harness: GatewayHarness

    init() throws {
      harness = try GatewayHarness()
    }

    @Test func preparesOnceAndReuses() throws {
      let connection = try harness.pool.checkOut()
      defer { harness.pool.checkIn(connection) }
      let add = "select $1::int + $2::int"
      for (a, b, sum) in [("1", "2", "3"), ("10", "20", "30")] {
        let results = try connection.pipeline([PGStatement(add, [a, b], prepared: true)])
        #expect(results[0].scalar == sum)
      }
      #expect(connection.preparedStatements.withLock { $0.count } == 1)
      // A failing statement in the pipeline: the error surfaces, the connection stays usable.
      #expect(throws: PGError.self) {
        try connection.pipeline([
          PGStatement(add, ["1", "1"], prepared: true),
          PGStatement("select 1/$1::int", ["0"], prepared: true),
        ])
      }
      #expect(
        try connection.pipeline([PGStatement(add, ["2", "2"], prepared: true)])[0].scalar == "4")
      #expect(
        try connection.pipeline([PGStatement("select 1/$1::int", ["1"], prepared: true)])[0]
          .scalar == "1")
      // A statement that does not parse is not remembered, and a later one still works.
      #expect(throws: PGError.self) {
        try connection.pipeline([PGStatement("selec $1", ["x"], prepared: true)])
      }
      #expect(connection.preparedStatements.withLock { $0.name(of: "selec $1") } == nil)
      #expect(connection.isReusable)
    }

    @Test func implicitTransactionKeepsTheRoleForItsStatementsOnly() throws {
      let connection = try harness.pool.checkOut()
      defer { harness.pool.checkIn(connection) }
      let results = try connection.pipeline([
        RequestRole(role: "anon", claims: #"{"role":"anon"}"#).prelude,
        PGStatement("select current_user", prepared: true),
      ])
      #expect(results[1].scalar == "anon")
      #expect(try connection.execute("select current_user").scalar == "authenticator")
      #expect(connection.isReusable)
    }
  }
}
