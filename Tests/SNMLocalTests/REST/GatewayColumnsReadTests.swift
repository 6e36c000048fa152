import Testing

@testable import SNMGateway
@testable import SNMLocal
@testable import SNMLocalREST

/// Reads answered from the rows' columns, the JSON written by the gateway (see
/// `RESTGateway.columnsRead`), against real Postgres (see `GatewayHarness`).
extension GatewayDatabaseTests {
  @Suite final class ColumnsRead {
    let harness: GatewayHarness

    init() throws {
      harness = try GatewayHarness()
    }

    /// The statements learnt so far, and how each is written.
    func learnt() -> [(sql: String, byGateway: Bool)] {
      harness.gateway.columnReads.all.map { sql, entry in
        if case .postgres = entry { return (sql, false) }
        return (sql, true)
      }
    }

    @Test func aReadIsWrittenByTheGatewayAsJSONAggWouldBe() throws {
      let response = harness.send("GET", "/users?select=*&order=name&limit=3")
      #expect(response.status == 200)
      #expect(
        response.text == (try harness.jsonAgg("select * from public.users order by name limit 3")))
      #expect(learnt().count == 1 && learnt().allSatisfy(\.byGateway))
      // Again from what was learnt, and a single object is the row's own object.
      let again = harness.send("GET", "/users?select=*&order=name&limit=3")
      #expect(again.text == response.text)
      let one = harness.send(
        "GET", "/users?select=name,age,tags,data&name=eq.Kim",
        headers: [("Accept", "application/vnd.pgrst.object+json")])
      #expect(one.status == 200)
      #expect(
        one.text
          == (try harness.admin.execute(
            "select row_to_json(r)::text from (select name, age, tags, data from public.users "
              + "where name = 'Kim') r"
          ).scalar))
    }

    @Test func aTypeTheGatewayCannotWriteIsLeftToPostgres() throws {
      try harness.admin.executeScript(
        "create type public.pair as (a int, b text); "
          + "create table public.pairs (id int primary key, p public.pair); "
          + "insert into public.pairs values (1, row(1, 'x')), (2, null); "
          + "grant select on public.pairs to anon, service_role;")
      try harness.gateway.reloadSchemaCache(database: harness.pool)
      for _ in 0..<2 {
        let response = harness.send("GET", "/pairs?select=*&order=id")
        #expect(response.status == 200)
        #expect(response.text == (try harness.jsonAgg("select * from public.pairs order by id")))
      }
      #expect(learnt().count == 1 && learnt().allSatisfy { !$0.byGateway })
      // A reload forgets what was learnt (the types may have changed).
      try harness.gateway.reloadSchemaCache(database: harness.pool)
      #expect(learnt().isEmpty)
    }

    @Test func countsAndStrippedNullsStayWithPostgres() {
      let counted = harness.send(
        "GET", "/users?select=name&order=name", headers: [("Prefer", "count=exact")])
      #expect(counted.status == 200 && counted.header("Content-Range") == "0-3/4")
      let stripped = harness.send(
        "GET", "/users?select=name,age&name=eq.박지성",
        headers: [("Accept", "application/vnd.pgrst.array+json;nulls=stripped")])
      #expect(stripped.text == #"[{"name":"박지성"}]"#)
      #expect(learnt().isEmpty)
    }
  }
}
