import SNMWire
import Testing

@testable import SNMGateway
@testable import SNMLocal
@testable import SNMLocalREST

/// Reads kept by the request's shape (`ShapedReads`, `RequestShapeCache`), against
/// real Postgres (see `GatewayHarness`): the same answers as planned afresh, bounded, forgotten
/// on a reload.
extension GatewayDatabaseTests {
  @Suite final class ShapeCache {
    let harness: GatewayHarness

    init() throws {
      harness = try GatewayHarness()
    }

    var usage: (entries: Int, bytes: Int, hits: Int) { harness.gateway.shapes.usage }

    @Test func aShapeServesOtherValuesWithTheirOwnRows() throws {
      let names = ["Kim", "Lee", "박지성", "Émile 🐶", "nobody", "a'b\"c\\d", "Kim%"]
      for name in names {
        let encoded = PercentEncoding.encode(name)
        let response = harness.send("GET", "/users?select=name,age,tags&name=eq.\(encoded)")
        #expect(response.status == 200)
        let quoted = name.replacingOccurrences(of: "'", with: "''")
        #expect(
          response.text
            == (try harness.jsonAgg(
              "select name, age, tags from public.users where name = '\(quoted)'")))
      }
      // One shape, found by every request after the first.
      #expect(usage.entries == 1)
      #expect(usage.hits == names.count - 1)
      // Negated and two slots; a slot's order is the query string's.
      for (low, high) in [(10, 40), (0, 100), (31, 50)] {
        let response = harness.send(
          "GET", "/users?select=name&age=gte.\(low)&age=not.gt.\(high)&order=name")
        #expect(
          response.text
            == (try harness.jsonAgg(
              "select name from public.users where age >= \(low) and not (age > \(high)) "
                + "order by name")))
      }
      #expect(usage.entries == 2)
    }

    @Test func valuesThatAreNoSlotsStayInTheShape() throws {
      // `like` turns `*` into `%`, `is` writes its value into the SQL, `limit` is no filter:
      // each value is a shape of its own, and each answer is right.
      let like1 = harness.send("GET", "/users?select=name&name=like.K*")
      let like2 = harness.send("GET", "/users?select=name&name=like.L*")
      #expect(like1.text == #"[{"name":"Kim"}]"#)
      #expect(like2.text == #"[{"name":"Lee"}]"#)
      let null = harness.send("GET", "/users?select=name&age=is.null")
      let notNull = harness.send("GET", "/users?select=name&age=not.is.null&order=name&limit=1")
      #expect(null.text == #"[{"name":"박지성"}]"#)
      #expect(notNull.text == #"[{"name":"Kim"}]"#)
      #expect(usage.entries == 4 && usage.hits == 0)
      // An error found by Postgres is the same the second time (from the shape).
      let first = harness.send("GET", "/users?select=name&age=eq.x")
      let second = harness.send("GET", "/users?select=name&age=eq.y")
      #expect(first.status == 400 && second.status == 400)
      #expect(first.json["code"] == .string("22P02"))
      #expect(second.json["code"] == first.json["code"])
      #expect(usage.hits == 0)
    }

    @Test func headersRolesAndReloadsMakeOtherShapes() throws {
      let array = harness.send("GET", "/users?select=name&name=eq.Kim")
      let object = harness.send(
        "GET", "/users?select=name&name=eq.Kim",
        headers: [("Accept", "application/vnd.pgrst.object+json")])
      let anon = harness.send("GET", "/users?select=name&name=eq.Kim", auth: GatewayHarness.anon)
      #expect(array.text == #"[{"name":"Kim"}]"#)
      #expect(object.text == #"{"name":"Kim"}"#)
      #expect(anon.text == #"[{"name":"Kim"}]"#)
      #expect(usage.entries == 3 && usage.hits == 0)
      // A singular answer of no rows is the same error from the shape.
      let none = harness.send(
        "GET", "/users?select=name&name=eq.nobody",
        headers: [("Accept", "application/vnd.pgrst.object+json")])
      #expect(none.status == 406 && none.json["code"] == .string("PGRST116"))
      #expect(usage.hits == 1)
      // A reload forgets every shape: a new column is read at once.
      try harness.admin.executeScript("alter table public.users add column nick text")
      try harness.gateway.reloadSchemaCache(database: harness.pool)
      #expect(usage.entries == 0 && usage.bytes == 0)
      let after = harness.send("GET", "/users?select=*&name=eq.Lee")
      #expect(after.json[0]?["nick"] == .null)
      #expect(after.text.contains(#""nick":null"#))
    }

    @Test func manyShapesNeverGrowTheCachePastItsLimits() throws {
      var settings = RESTGateway.Settings()
      settings.shapeLimits = RequestShapeCache.Limits(entries: 8, bytes: 4_096)
      let gateway = RESTGateway(settings: settings)
      try gateway.reloadSchemaCache(database: harness.pool)
      var most = 0
      for limit in 0..<40 {
        let padding = String(repeating: "x", count: limit * 10)
        let request = HTTPRequest(
          method: "GET", target: "/rest/v1/users?select=name&order=name&limit=\(limit % 5)",
          headers: ["Prefer": "handling=lenient, x-pad=\(padding)"])
        let response = gateway.handle(request, auth: GatewayHarness.service, database: harness.pool)
        #expect(response.status == 200)
        let usage = gateway.shapes.usage
        #expect(usage.entries <= 8 && usage.bytes <= 4_096)
        most = max(most, usage.entries)
      }
      #expect(most == 8)
      // A shape longer than the longest key kept is answered, and never kept.
      let long = String(repeating: "y", count: RequestShape.longestKey)
      let request = HTTPRequest(
        method: "GET", target: "/rest/v1/users?select=name&name=eq.\(long)")
      #expect(gateway.handle(request, auth: .anonymous, database: harness.pool).status == 200)
      #expect(gateway.shapes.usage.entries <= 8)
    }
  }
}

/// The probe's comparison alone (`ShapedReads.slottedParameters`).
@Suite struct ShapeSlotsTests {
  let probe0 = RequestShape.probe(0).decoded
  let probe1 = RequestShape.probe(1).decoded

  @Test func slotsAreFoundWhereTheProbesAre() {
    let real = PGStatement("select $1, $2, $3", ["a", "public", "b"])
    let probe = PGStatement("select $1, $2, $3", [probe0, "public", probe1])
    #expect(
      ShapedReads.slottedParameters(real: real, probe: probe, values: ["a", "b"])
        == [.slot(0), .constant("public"), .slot(1)])
  }

  @Test func anyOtherDifferenceKeepsTheShapeFromBeingKept() {
    let real = PGStatement("select $1", ["a"])
    // Another text, another count, a value changed on its way in, a constant that moved.
    #expect(
      ShapedReads.slottedParameters(
        real: real, probe: PGStatement("select $1 + 0", [probe0]), values: ["a"]) == nil)
    #expect(
      ShapedReads.slottedParameters(
        real: real, probe: PGStatement("select $1", [probe0, "x"]), values: ["a"]) == nil)
    #expect(
      ShapedReads.slottedParameters(
        real: PGStatement("select $1", ["A"]), probe: PGStatement("select $1", [probe0]),
        values: ["a"]) == nil)
    #expect(
      ShapedReads.slottedParameters(
        real: PGStatement("select $1", ["x"]), probe: PGStatement("select $1", ["y"]),
        values: []) == nil)
  }

  @Test func theKeyLeavesOutOnlyTheSlottedValues() throws {
    func shape(_ target: String, headers: HTTPHeaders = [:]) throws -> RequestShape {
      try #require(
        RequestShape(HTTPRequest(method: "GET", target: target, headers: headers), role: "anon"))
    }
    let one = try shape("/rest/v1/t?select=*&id=eq.1&b=not.lt.x%20y")
    let two = try shape("/rest/v1/t?select=*&id=eq.22&b=not.lt.z")
    #expect(
      one.key == two.key && [one.raw(0), one.raw(1)] == ["1", "x%20y"]
        && [two.raw(0), two.raw(1)] == ["22", "z"])
    for other in [
      "/rest/v1/t?select=*&id=like.1&b=not.lt.x", "/rest/v1/t?select=id&id=eq.1&b=not.lt.x",
      "/rest/v1/t?select=*&id=eq.1&b=lt.x", "/rest/v1/t?select=*&limit=1&id=eq.1&b=not.lt.x",
      "/rest/v1/u?select=*&id=eq.1&b=not.lt.x", "/rest/v1/t?select=*&a.id=eq.1&b=not.lt.x",
    ] {
      #expect(try shape(other).key != one.key, "\(other)")
    }
    #expect(try shape("/rest/v1/t?limit=eq.1").slots.isEmpty)
    #expect(try shape("/rest/v1/t?or=eq.1").slots.isEmpty)
    let object = try shape(
      "/rest/v1/t?select=*&id=eq.1&b=not.lt.x",
      headers: ["Accept": "application/vnd.pgrst.object+json"])
    let prefer = try shape("/rest/v1/t?select=*&id=eq.1&b=not.lt.x", headers: ["Prefer": "a"])
    let profile = try shape(
      "/rest/v1/t?select=*&id=eq.1&b=not.lt.x", headers: ["Accept-Profile": "api"])
    #expect(Set([one.key, object.key, prefer.key, profile.key]).count == 4)
    let other = RequestShape(HTTPRequest(method: "GET", target: "/rest/v1/t?id=eq.1"), role: "x")
    #expect(other?.key != (try shape("/rest/v1/t?id=eq.1")).key)
  }
}
