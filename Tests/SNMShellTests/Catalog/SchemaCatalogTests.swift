import Foundation
import SNMNetwork
import SNMSupabase
import SNMTestSupport
import SNMWire
import Testing

@testable import SNMShell

func demoSchema() throws -> DatabaseSchema {
  let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Fixtures/schema/demo-openapi.json")
  return try DatabaseSchema(openAPI: try JSONValue(parsing: try Data(contentsOf: url)))
}

@Test func openAPIGivesTablesColumnsKeysAndFunctions() throws {
  let schema = try demoSchema()
  #expect(schema.tables.map(\.name) == ["user_info", "dog_profile", "mate", "walk_request"])
  let user = try #require(schema.table(named: "user_info"))
  #expect(user.columns.map(\.name) == ["id", "name", "age", "bio", "profile", "created_at"])
  #expect(user.primaryKey == ["id"])
  #expect(user.column(named: "profile")?.type == "jsonb")
  #expect(user.column(named: "created_at")?.defaultValue == "now()")
  #expect(user.column(named: "bio")?.description == "What they say about themselves")
  #expect(user.column(named: "age")?.isRequired == false)
  #expect(user.canInsert && user.canUpdate && user.canDelete)
  let dog = try #require(schema.table(named: "dog_profile"))
  #expect(dog.column(named: "owner")?.foreignKey == .init(table: "user_info", column: "id"))
  #expect(dog.column(named: "tags")?.type == "text[]")
  #expect(!dog.canUpdate)
  #expect(schema.table(named: "mate")?.primaryKey == ["user_a", "user_b"])
  #expect(schema.functions.map(\.name) == ["nearby_dogs", "sleep_for", "sum"])
  let nearby = try #require(schema.function(named: "nearby_dogs"))
  #expect(nearby.arguments.map(\.name) == ["lat", "lng"])
  #expect(!nearby.isVolatile)
  #expect(schema.function(named: "sleep_for")?.isVolatile == true)
}

@Test func aDocumentWithoutPathsIsRefused() {
  #expect(throws: SchemaDocumentError("not an OpenAPI document: no \"paths\" object")) {
    try DatabaseSchema(
      openAPI: ["message": "Access to schema is forbidden"])
  }
}

@Test func catalogMergesTheDocumentWithNamesSeenInResults() throws {
  let catalog = SchemaCatalog(schema: try demoSchema())
  catalog.noteResult(table: "user_info", columns: ["id", "nickname"])
  catalog.noteResult(table: "secret_view", columns: ["a"])
  #expect(
    catalog.tableNames() == ["user_info", "dog_profile", "mate", "walk_request", "secret_view"])
  #expect(catalog.columns(of: "user_info").suffix(2) == ["created_at", "nickname"])
  #expect(catalog.relations(of: "user_info") == ["dog_profile", "mate"])
  #expect(catalog.relations(of: "dog_profile") == ["user_info"])
  #expect(catalog.functionNames() == ["nearby_dogs", "sleep_for", "sum"])
}

@Test func withoutTheDocumentTheCatalogKnowsWhatItSaw() {
  let catalog = SchemaCatalog()
  #expect(catalog.tableNames().isEmpty)
  catalog.noteResult(table: "user_info", columns: ["id", "name"])
  #expect(catalog.tableNames() == ["user_info"])
  #expect(catalog.columns(of: "user_info") == ["id", "name"])
  #expect(catalog.describe("user_info")?.rows == [["column": "id"], ["column": "name"]])
  #expect(catalog.describe("user_info")?.title == nil)
  #expect(catalog.describe("nothing") == nil)
}

@Test func describeShowsTypesNullabilityDefaultsAndKeys() throws {
  let catalog = SchemaCatalog(schema: try demoSchema())
  let writer = OutputWriter()
  let description = try #require(catalog.describe("dog_profile"))
  writer.write((description.title ?? "") + "\n")
  ResultRenderer(format: .table).render(description.rows, to: writer)
  writer.write(description.notes.joined(separator: "\n") + "\n")
  expectSnapshot(writer.captured, named: "schema/describe-dog_profile.table")
  let tables = OutputWriter()
  ResultRenderer(format: .table).render(catalog.tableRows(), to: tables)
  expectSnapshot(tables.captured, named: "schema/tables.table")
}

@Test func cacheFilesAreNamedPerProjectAndRoundTrip() throws {
  let directory = NSTemporaryDirectory() + "snm-cache-\(UUID().uuidString)"
  let cache = SchemaCache(directory: directory)
  let local = try ProjectSelection(url: "http://127.0.0.1:54321", key: "key-a")
  let other = try ProjectSelection(url: "http://127.0.0.1:54330", key: "key-a")
  #expect(cache.path(for: local) != cache.path(for: other))
  let hash = SchemaCache.hash("http://127.0.0.1:54321\nkey-a")
  #expect(cache.path(for: local) == directory + "/127.0.0.1-54321-\(hash).json")
  #expect(!cache.path(for: local).contains("key-a"))
  #expect(cache.load(for: local) == nil)
  cache.store(Data("{\"paths\":{}}".utf8), for: local)
  #expect(cache.load(for: local) == Data("{\"paths\":{}}".utf8))
  let file = try FileManager.default.attributesOfItem(atPath: cache.path(for: local))
  #expect((file[.posixPermissions] as? Int) == 0o600)
  let folder = try FileManager.default.attributesOfItem(atPath: directory)
  #expect((folder[.posixPermissions] as? Int) == 0o700)
  #expect(cache.load(for: other) == nil)
  #expect(
    SchemaCache.defaultDirectory(environment: ["XDG_CACHE_HOME": "/c"]) == "/c/snm/schema")
}

/// Another project served on the same port later (local projects are) has its own keys, so it
/// never sees the first one's document; nor does another key of the same project.
@Test func anotherProjectOnTheSamePortHasItsOwnCache() throws {
  let directory = NSTemporaryDirectory() + "snm-cache-\(UUID().uuidString)"
  defer { try? FileManager.default.removeItem(atPath: directory) }
  let cache = SchemaCache(directory: directory)
  let first = try ProjectSelection(url: "http://127.0.0.1:54321", key: "first-project-key")
  let second = try ProjectSelection(url: "http://127.0.0.1:54321", key: "second-project-key")
  cache.store(Data("{\"paths\":{}}".utf8), for: first)
  #expect(cache.path(for: first) != cache.path(for: second))
  #expect(cache.load(for: second) == nil)
  #expect(cache.load(for: first) != nil)
}

/// PostgREST 14.8+ names integer types by their width: int64 is bigint, int32 either of two.
@Test func integerFormatsOfNewerPostgRESTSayWhatTheyCanBe() throws {
  let document: JSONValue = [
    "paths": ["/t": ["get": [:]]],
    "definitions": [
      "t": [
        "properties": [
          "id": ["format": "int64", "type": "integer"],
          "n": ["format": "int32", "type": "integer"],
          "code": ["format": "character varying", "type": "string", "maxLength": 8],
        ],
        "required": ["id", "code"],
      ]
    ],
  ]
  let table = try #require(try DatabaseSchema(openAPI: document).table(named: "t"))
  #expect(table.column(named: "id")?.type == "bigint")
  #expect(table.column(named: "n")?.type == "integer or smallint")
  #expect(table.column(named: "code")?.typeWithLength == "character varying(8)")
  #expect(table.isReadOnly)
  #expect(table.column(named: "n")?.isRequired == false)
}
