import SNMGateway
import Testing

@testable import SNMLocalREST

/// `Content-Location`'s query string as PostgREST 13 writes it (QueryParams.hs `qsCanonical`).
struct CanonicalQueryTests {
  @Test func sortsDecodesAndEncodesAgain() {
    #expect(CanonicalQuery.canonical("") == "")
    #expect(CanonicalQuery.canonical("a=1&c=3&b=2&d") == "a=1&b=2&c=3&d=")
    #expect(
      CanonicalQuery.location(table: "items", query: "select=id,name&id=eq.1")
        == "/items?id=eq.1&select=id%2Cname")
    #expect(CanonicalQuery.location(table: "items", query: "") == "/items")
    #expect(CanonicalQuery.canonical("id=in.(1,2)") == "id=in.%281%2C2%29")
    #expect(CanonicalQuery.canonical("a-b_c.d~e=x*y") == "a-b_c.d~e=x%2Ay")
  }

  @Test func repeatedNamesJoinWithACommaInTheirOrder() {
    #expect(CanonicalQuery.canonical("id=lte.5&b=1&id=gte.1") == "b=1&id=lte.5,gte.1")
  }

  @Test func separatorsPlusesAndPercents() {
    #expect(CanonicalQuery.canonical("b=1;a=2") == "a=2&b=1")
    #expect(CanonicalQuery.canonical("a=x+y") == "a=x%20y")
    #expect(CanonicalQuery.canonical("a=%41%2c%zz") == "a=A%2C%25zz")
    #expect(CanonicalQuery.canonical("?a=1&&b") == "=&a=1&b=")
  }

  /// A byte past ASCII is taken as the Latin-1 character it would be and encoded in UTF-8.
  @Test func bytesPastASCIIAreEncodedTwice() {
    #expect(CanonicalQuery.canonical("name=%C3%A9") == "name=%C3%83%C2%A9")
    #expect(CanonicalQuery.canonical("name=é") == "name=%C3%83%C2%A9")
  }

  /// A query already canonical is its own answer (the fast path), and only then.
  @Test func canonicalQueriesComeBackAsTheyAre() {
    for query in ["id=eq.1", "a=1&b=2", "a=&b=x.y-z_~", "id=gte.1&select=id"] {
      #expect(CanonicalQuery.canonical(query) == query)
    }
    #expect(CanonicalQuery.canonical("b=1&a=2") == "a=2&b=1")
    #expect(CanonicalQuery.canonical("a=1&a=2") == "a=1,2")
    #expect(CanonicalQuery.canonical("a=b=c") == "a=b%3Dc")
    #expect(CanonicalQuery.canonical("a") == "a=")
    #expect(CanonicalQuery.canonical("a=1&apikey=k") == "a=1")
    #expect(CanonicalQuery.canonical("=1") == "=1")
  }

  @Test func theAPIKeyIsLeftOut() {
    #expect(CanonicalQuery.canonical("apikey=secret&id=eq.1") == "id=eq.1")
  }

  /// A kept shape's location (`CanonicalQuery.Template`, `ShapedReads`) is the one the request's
  /// own query gives, whatever its slots' values, wherever sorting puts them.
  @Test func aShapesTemplateWritesTheRequestsOwnLocation() throws {
    let queries = [
      "id=eq.4242", "select=*&id=eq.4242", "size=eq.1&id=eq.1", "label=eq.a+b&select=id",
      "label=eq.%C3%A9&select=id", "id=gte.1&b=2&id=lte.5", "z=neq.x*y&a=not.eq.%2C&m=lt.",
      "select=id&order=id.desc&id=gt.5000&owner=eq.0b6a5c1e-0000-4000-8000-000000000001",
    ]
    for query in queries {
      let request = HTTPRequest(method: "GET", target: "/rest/v1/t?" + query)
      let shape = try #require(RequestShape(request, role: "anon"))
      #expect(!shape.slots.isEmpty)
      let probe = CanonicalQuery.location(table: "t", query: shape.probeRequest(request).query)
      let template = try #require(
        CanonicalQuery.Template(probeLocation: probe, slotCount: shape.slots.count))
      #expect(template.location(shape) == CanonicalQuery.location(table: "t", query: query))
    }
  }

  /// A query that holds a probe's own text shows a slot twice: no template, the shape not kept.
  @Test func aQueryHoldingAProbesTextHasNoTemplate() throws {
    let request = HTTPRequest(method: "GET", target: "/rest/v1/t?id=eq.1&a=like.%01snm-slot-0%01")
    let shape = try #require(RequestShape(request, role: "anon"))
    let probe = CanonicalQuery.location(table: "t", query: shape.probeRequest(request).query)
    #expect(CanonicalQuery.Template(probeLocation: probe, slotCount: shape.slots.count) == nil)
    #expect(
      CanonicalQuery.Template(probeLocation: "/t?a=b", slotCount: 0)?.pieces == [
        Array("/t?a=b".utf8)
      ])
  }
}
