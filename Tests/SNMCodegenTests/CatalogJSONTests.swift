import Testing

@testable import SNMCodegen

/// The catalog query's document read into a catalog: domains to their base, arrays to their
/// element, user types of other schemas to text or JSON, functions PostgREST can call.
struct CatalogJSONTests {
  static let document = """
    {"types": [
      {"oid": 23, "schema": "pg_catalog", "name": "int4", "kind": "b"},
      {"oid": 1007, "schema": "pg_catalog", "name": "_int4", "kind": "b", "element": 23},
      {"oid": 2249, "schema": "pg_catalog", "name": "record", "kind": "p"},
      {"oid": 2279, "schema": "pg_catalog", "name": "trigger", "kind": "p"},
      {"oid": 2278, "schema": "pg_catalog", "name": "void", "kind": "p"},
      {"oid": 100, "schema": "public", "name": "positive", "kind": "d", "base": 23},
      {"oid": 101, "schema": "public", "name": "mood", "kind": "e"},
      {"oid": 102, "schema": "elsewhere", "name": "level", "kind": "e"},
      {"oid": 103, "schema": "public", "name": "todos", "kind": "c", "relkind": "r",
       "relname": "todos"},
      {"oid": 104, "schema": "public", "name": "_mood", "kind": "b", "element": 101}],
     "relations": [{"schema": "public", "name": "todos", "kind": "r", "comment": "To do",
       "insertable": true, "updatable": true, "primary_key": ["id"], "columns": [
         {"name": "id", "type": 23, "not_null": true, "has_default": false, "identity": "a",
          "generated": ""},
         {"name": "n", "type": 100, "not_null": false, "has_default": true, "identity": "",
          "generated": ""},
         {"name": "moods", "type": 104, "not_null": false, "has_default": false, "identity": "",
          "generated": ""},
         {"name": "grid", "type": 1007, "not_null": false, "has_default": false, "identity": "",
          "generated": "", "dimensions": 2},
         {"name": "flat", "type": 1007, "not_null": false, "has_default": false, "identity": "",
          "generated": "", "dimensions": 1},
         {"name": "count", "type": 23, "not_null": false, "has_default": false, "identity": "",
          "generated": "", "dimensions": 2},
         {"name": "level", "type": 102, "not_null": false, "has_default": false, "identity": "",
          "generated": ""},
         {"name": "twice", "type": 23, "not_null": false, "has_default": false, "identity": "",
          "generated": "s", "comment": "id * 2"}]}],
     "enums": [{"schema": "public", "name": "mood", "labels": ["happy", "sad"]}],
     "functions": [
       {"schema": "public", "name": "add", "returns": 23, "set": false, "arg_types": [23, 23],
        "arg_names": ["a", "b"], "arg_modes": null, "defaults": 1},
       {"schema": "public", "name": "pairs", "returns": 2249, "set": true,
        "arg_types": [23, 23, 23], "arg_names": ["n", "i", "sq"], "arg_modes": ["i", "t", "t"],
        "defaults": 0},
       {"schema": "public", "name": "all_todos", "returns": 103, "set": true, "arg_types": [],
        "arg_names": null, "arg_modes": null, "defaults": 0},
       {"schema": "public", "name": "touch", "returns": 2278, "set": false, "arg_types": [],
        "arg_names": null, "arg_modes": null, "defaults": 0},
       {"schema": "public", "name": "on_insert", "returns": 2279, "set": false, "arg_types": [],
        "arg_names": null, "arg_modes": null, "defaults": 0},
       {"schema": "public", "name": "unnamed", "returns": 23, "set": false, "arg_types": [23],
        "arg_names": null, "arg_modes": null, "defaults": 0}]}
    """

  @Test func columnsResolveTheirTypesAndWhatAnInsertMayLeaveOut() throws {
    let catalog = try DatabaseCatalog(
      catalogJSON: Self.document, schemas: ["public"], source: "a test")
    let todos = try #require(catalog.relations.first)
    #expect(todos.comment == "To do" && todos.primaryKey == ["id"])
    let columns = Dictionary(uniqueKeysWithValues: todos.columns.map { ($0.name, $0) })
    #expect(columns["id"]?.readOnly == true && columns["id"]?.hasDefault == true)
    #expect(columns["id"]?.nullable == false)
    #expect(columns["n"]?.type == .base("int4") && columns["n"]?.hasDefault == true)
    #expect(columns["moods"]?.type == .array(.enumeration(schema: "public", name: "mood")))
    #expect(columns["level"]?.type == .base("text"))
    // A column declared int4[][] is an array of arrays; 1 (or none: a view's) is one level.
    #expect(columns["grid"]?.type == .array(.array(.base("int4"))))
    #expect(columns["flat"]?.type == .array(.base("int4")))
    #expect(columns["count"]?.type == .base("int4"))
    #expect(columns["twice"]?.readOnly == true && columns["twice"]?.comment == "id * 2")
  }

  @Test func functionsPostgRESTCanCallAndWhatTheyReturn() throws {
    let catalog = try DatabaseCatalog(
      catalogJSON: Self.document, schemas: ["public"], source: "a test")
    let functions = Dictionary(uniqueKeysWithValues: catalog.functions.map { ($0.name, $0) })
    #expect(Set(functions.keys) == ["add", "pairs", "all_todos", "touch"])
    #expect(functions["add"]?.arguments.map(\.hasDefault) == [false, true])
    #expect(functions["add"]?.result == .value(.base("int4"), set: false))
    guard case .rows(let columns, set: true)? = functions["pairs"]?.result else {
      Issue.record("pairs returns rows")
      return
    }
    #expect(columns.map(\.name) == ["i", "sq"])
    #expect(functions["pairs"]?.arguments.map(\.name) == ["n"])
    #expect(
      functions["all_todos"]?.result == .value(.row(schema: "public", name: "todos"), set: true))
    #expect(functions["touch"]?.result == DatabaseCatalog.Function.Result.none)
  }

  @Test func aDocumentThatIsNotJSONIsAnError() {
    #expect(throws: CatalogError.self) {
      try DatabaseCatalog(catalogJSON: "not json", schemas: ["public"], source: "a test")
    }
  }
}
