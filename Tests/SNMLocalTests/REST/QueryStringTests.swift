import Testing

@testable import SNMLocal
@testable import SNMLocalREST

@Suite struct QueryStringTests {
  struct Case: Sendable, CustomStringConvertible {
    var raw: String
    var pairs: [QueryString.Pair]
    var description: String { raw }
  }

  static let cases: [Case] = [
    Case(raw: "select=id,name", pairs: [.init(key: "select", value: "id,name")]),
    Case(raw: "?a=1", pairs: [.init(key: "a", value: "1")]),
    Case(
      raw: "a=1;b=2&c=3",
      pairs: [
        .init(key: "a", value: "1"), .init(key: "b", value: "2"), .init(key: "c", value: "3"),
      ]
    ),
    Case(raw: "to=eq.+1650", pairs: [.init(key: "to", value: "eq. 1650")]),
    Case(raw: "to=eq.%2B1650", pairs: [.init(key: "to", value: "eq.+1650")]),
    Case(raw: "x=%41%42%zz%4", pairs: [.init(key: "x", value: "AB%zz%4")]),
    Case(raw: "x=a%3Bb%26c", pairs: [.init(key: "x", value: "a;b&c")]),
    Case(raw: "bare&k=", pairs: [.init(key: "bare", value: nil), .init(key: "k", value: "")]),
    Case(
      raw: "a=1&&b=2",
      pairs: [.init(key: "a", value: "1"), .init(key: "", value: nil), .init(key: "b", value: "2")]
    ),
    Case(raw: "k=a=b", pairs: [.init(key: "k", value: "a=b")]),
    Case(raw: "name=eq.%ED%95%9C", pairs: [.init(key: "name", value: "eq.한")]),
    Case(raw: "a=1&", pairs: [.init(key: "a", value: "1")]),
  ]

  @Test(arguments: cases) func decodes(_ item: Case) throws {
    #expect(try QueryString.parse(item.raw) == item.pairs)
  }

  @Test func refusesNulAndInvalidUTF8() {
    #expect(throws: RESTError.self) { try QueryString.parse("id=eq.a%00b") }
    #expect(throws: RESTError.self) { try QueryString.parse("id=eq.%FF") }
    do {
      _ = try QueryString.parse("id=eq.a%00b")
      Issue.record("parsed")
    } catch {
      #expect(error.status == 400)
      #expect(error.code == "PGRST100")
    }
  }
}
