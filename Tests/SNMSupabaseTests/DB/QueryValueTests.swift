import Foundation
import SNMNetwork
import SNMWire
import Testing

@testable import SNMSupabase

/// How each Swift value renders after an operator (top level) and inside lists.
@Suite struct QueryValueTests {
  struct Case: Sendable, CustomTestStringConvertible {
    let name: String
    let value: SupabaseQueryValue
    let rendered: String
    var testDescription: String { name }

    init(_ name: String, _ value: some SupabaseQueryRepresentable, _ rendered: String) {
      self.name = name
      self.value = value.queryValue
      self.rendered = rendered
    }
  }

  static let cases: [Case] = [
    .init("string as-is, quotes are data", #"say "hi", (ok)"#, #"say "hi", (ok)"#),
    .init("Int", -42, "-42"),
    .init("Double", 37.5, "37.5"),
    .init("whole Double", 127.0, "127.0"),
    .init("small Double", 0.00001, "1e-05"),
    .init("Bool", false, "false"),
    .init(
      "UUID lowercase", UUID(uuidString: "0C8E5F7A-6B9D-4F1E-9A3B-2D4C6E8F0A1B") ?? UUID(),
      "0c8e5f7a-6b9d-4f1e-9a3b-2d4c6e8f0a1b"),
    .init("epoch", Date(timeIntervalSince1970: 0), "1970-01-01T00:00:00.000Z"),
    .init("leap day", Date(timeIntervalSince1970: 1_709_210_096.789), "2024-02-29T12:34:56.789Z"),
    .init("before the epoch", Date(timeIntervalSince1970: -86_400.5), "1969-12-30T23:59:59.500Z"),
    .init("year 2100", Date(timeIntervalSince1970: 4_107_542_400), "2100-03-01T00:00:00.000Z"),
    .init(
      "array of strings with quoting", ["a", "b,c", "", "null", #"q"u\o"#],
      #"{a,"b,c","","null","q\"u\\o"}"#),
    .init("array of optionals", [1, nil, 3] as [Int?], "{1,NULL,3}"),
    .init("nested arrays", [[1, 2], [3, 4]], "{{1,2},{3,4}}"),
    .init(
      "array of UUIDs", [UUID(uuidString: "0C8E5F7A-6B9D-4F1E-9A3B-2D4C6E8F0A1B") ?? UUID()],
      "{0c8e5f7a-6b9d-4f1e-9a3b-2d4c6e8f0a1b}"),
    .init(
      "JSON object, keys in order", ["b": 1, "a": ["x": nil]] as JSONValue,
      #"{"b":1,"a":{"x":null}}"#),
    .init("JSON array as a literal", [1, "a b", ["k": 1]] as JSONValue, #"{1,a b,"{\"k\":1}"}"#),
    .init("JSON number text", JSONValue.number(JSONNumber("1.50") ?? 0), "1.50"),
    .init("JSON string", JSONValue.string("x"), "x"),
    .init("JSON null", JSONValue.null, "null"),
    .init("JSONObject", ["id": 1] as JSONObject, #"{"id":1}"#),
    .init("nil", Int?.none, "null"),
  ]

  @Test(arguments: cases)
  func renders(_ testCase: Case) {
    #expect(testCase.value.rendered == testCase.rendered)
  }

  @Test func listElementsAreQuotedWhenNeeded() {
    #expect(
      PostgresLiteral.list([.string("a"), .string("b c"), .string(" x"), .int(3)])
        == #"(a,b c," x",3)"#)
    #expect(PostgresLiteral.list([.array([.int(1), .int(2)])]) == #"("{1,2}")"#)
    #expect(PostgresLiteral.name("user_info") == "user_info")
    #expect(PostgresLiteral.name("Order Items") == #""Order Items""#)
    #expect(PostgresLiteral.name("") == #""""#)
  }

  @Test func columnsParseEmbedsJSONPathsAndQuotes() {
    let embedded = SupabaseColumn(parsing: "messages.public")
    #expect(embedded.embedPath == ["messages"] && embedded.name == "public")
    let path = SupabaseColumn(parsing: "data->addr->>zip")
    #expect(path.name == "data" && path.jsonPath.map(\.key) == ["addr", "zip"])
    #expect(path.jsonPath.map(\.asText) == [false, true])
    #expect(path.wireKey == "data->addr->>zip")
    let quoted = SupabaseColumn(parsing: #""information.cpe""#)
    #expect(quoted.name == "information.cpe" && quoted.embedPath.isEmpty)
    #expect(quoted.wireKey == #""information.cpe""#)
    #expect(quoted.description == #""information.cpe""#)
    #expect(SupabaseColumn(parsing: "arr->0->>-1").wireKey == "arr->0->>-1")
    #expect(SupabaseColumn(parsing: #"data->>"blood type""#).wireKey == #"data->>"blood type""#)
  }
}

@Test func embedArrayFormEqualsTheVariadicOne() {
  #expect(
    SupabaseSelectItem.embed("user_info", as: "owner", join: .inner, items: ["id", "name"])
      == .embed("user_info", as: "owner", join: .inner, "id", "name"))
}
