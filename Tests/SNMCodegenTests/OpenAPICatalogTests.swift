import SNMWire
import Testing

@testable import SNMCodegen

/// What the OpenAPI document PostgREST serves gives the generator, and what it cannot.
struct OpenAPICatalogTests {
  static let document = """
    {"definitions": {"todos": {"description": "Things to do", "required": ["id", "title"],
      "properties": {
        "id": {"format": "bigint", "type": "integer",
               "description": "Note:\\nThis is a Primary Key.<pk/>"},
        "title": {"format": "text", "type": "string", "description": "What to do"},
        "state": {"format": "public.state", "type": "string", "enum": ["open", "done"]},
        "due": {"format": "timestamp with time zone", "type": "string"},
        "tags": {"format": "text[]", "type": "array", "items": {"type": "string"}},
        "place": {"format": "address", "type": "string"}}}},
     "paths": {"/todos": {"get": {}, "post": {}},
       "/rpc/add": {"post": {"summary": "Adds", "parameters": [{"in": "body", "name": "args",
         "schema": {"properties": {"a": {"format": "integer", "type": "integer"},
                                   "b": {"format": "integer", "type": "integer"}},
                    "required": ["a"], "type": "object"}}]}}}}
    """

  @Test func readsTablesEnumsAndFunctionsAndSaysWhatItCannotKnow() throws {
    let catalog = DatabaseCatalog(
      openAPI: [("public", try JSONValue(parsing: Self.document))], source: "a test")
    let todos = try #require(catalog.relations.first)
    #expect(todos.comment == "Things to do")
    #expect(todos.primaryKey == ["id"])
    #expect(todos.insertable && !todos.updatable)
    let columns = Dictionary(uniqueKeysWithValues: todos.columns.map { ($0.name, $0) })
    #expect(columns["id"]?.type == .base("int8") && columns["id"]?.nullable == false)
    #expect(columns["id"]?.comment == nil)
    #expect(columns["title"]?.comment == "What to do")
    #expect(columns["state"]?.type == .enumeration(schema: "public", name: "state"))
    #expect(columns["due"]?.type == .base("timestamptz") && columns["due"]?.nullable == true)
    #expect(columns["tags"]?.type == .array(.base("text")))
    #expect(columns["place"]?.type == .json)
    #expect(catalog.enums == [.init(schema: "public", name: "state", labels: ["open", "done"])])
    let add = try #require(catalog.functions.first)
    #expect(add.name == "add" && add.result == .unknown && add.comment == "Adds")
    #expect(add.arguments.map(\.hasDefault) == [false, true])
    #expect(catalog.limits.first?.contains("no composite types") == true)
  }

  @Test func theFileIsTheSameForTheSameCatalog() throws {
    let catalog = DatabaseCatalog(
      openAPI: [("public", try JSONValue(parsing: Self.document))], source: "a test")
    let first = SwiftFileWriter(catalog: catalog, access: .public).file()
    #expect(first == SwiftFileWriter(catalog: catalog, access: .public).file())
    #expect(first.contains("public enum State: String, Codable, Hashable, Sendable, CaseIterable"))
    #expect(first.contains("public typealias Returns = JSONValue"))
    let hidden = SwiftFileWriter(catalog: catalog, access: .internal).file()
    #expect(!hidden.contains("public "))
  }
}
