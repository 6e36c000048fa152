import Testing

@testable import SNMGateway
@testable import SNMLocal
@testable import SNMLocalREST

/// What the gateway makes of user types for a streamed JSON array, asked of real Postgres (see
/// `GatewayHarness`); the end-to-end streaming tests compare the answers with `json_agg`.
extension GatewayDatabaseTests {
  @Suite final class UserTypes {
    let harness: GatewayHarness

    init() throws {
      harness = try GatewayHarness()
    }

    func oid(_ type: String) throws -> UInt32 {
      let text = try harness.admin.execute("select '\(type)'::regtype::oid").scalar
      return try #require(text.flatMap { UInt32($0) })
    }

    @Test func enumsDomainsAndTheirArraysAreWrittenCompositesAndCastsAreNot() throws {
      try harness.admin.executeScript(
        """
        drop schema if exists types_probe cascade; create schema types_probe;
        create type types_probe.mood as enum ('calm');
        create domain types_probe.posint as int;
        create domain types_probe.moodish as types_probe.mood;
        create domain types_probe.tags as text[];
        create type types_probe.pair as (a int);
        create type types_probe.tone as enum ('low');
        create function types_probe.tone_json(types_probe.tone) returns json language sql
          as $$ select '1'::json $$;
        create cast (types_probe.tone as json) with function types_probe.tone_json(types_probe.tone);
        """)
      defer { _ = try? harness.admin.executeScript("drop schema types_probe cascade") }
      let connection = try harness.pool.checkOut()
      defer { harness.pool.checkIn(connection) }
      func kinds(_ types: [String]) throws -> [UInt32: RowJSONEncoder.Kind]? {
        try RowJSONEncoder.userTypeKinds(
          types.map(oid), isoDates: true, connection: connection, interrupt: nil)
      }
      let mood = try oid("types_probe.mood")
      let found = try #require(
        try kinds([
          "types_probe.mood", "types_probe.mood[]", "types_probe.posint", "types_probe.posint[]",
          "types_probe.moodish", "types_probe.tags",
        ]))
      #expect(found[mood] == .string)
      #expect(found[try oid("types_probe.mood[]")] == .array(.string))
      #expect(found[try oid("types_probe.posint")] == .number)
      #expect(found[try oid("types_probe.posint[]")] == .array(.number))
      #expect(found[try oid("types_probe.moodish")] == .string)
      #expect(found[try oid("types_probe.tags")] == .array(.string))
      #expect(try kinds(["types_probe.pair"]) == nil, "a composite is left to Postgres")
      #expect(try kinds(["types_probe.tone"]) == nil, "a cast to json is left to Postgres")
      #expect(try kinds(["int4"]) == [:], "built-in types are not asked")
    }
  }
}
