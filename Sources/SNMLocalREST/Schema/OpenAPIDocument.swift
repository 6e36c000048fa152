import SNMWire

/// The Swagger 2.0 document PostgREST serves at the root (`Response/OpenAPI.hs`), built from the
/// schema cache for one schema and the tables and functions the role may use.
///
///     OpenAPIDocument(cache: cache, schema: "public", host: "127.0.0.1:54321",
///                     privileges: privileges).json.serialized()
struct OpenAPIDocument {
  /// What the requesting role may do, per table (`select`, `insert`, `update`, `delete`) and
  /// which functions it may execute.
  struct Privileges: Sendable {
    var tables: [String: Set<String>]
    var functions: Set<String>

    /// Everything allowed (for tests and roles that bypass privileges).
    static func all(_ cache: SchemaCache, schema: String) -> Privileges {
      Privileges(
        tables: Dictionary(
          uniqueKeysWithValues: cache.tables.keys.filter { $0.schema == schema }.map {
            ($0.name, Set(["select", "insert", "update", "delete"]))
          }),
        functions: Set(cache.routines.keys.filter { $0.schema == schema }.map(\.name)))
    }
  }

  var cache: SchemaCache
  var schema: String
  var host: String
  var privileges: Privileges

  static let mediaTypes: [JSONValue] = [
    "application/json", "application/vnd.pgrst.object+json;nulls=stripped",
    "application/vnd.pgrst.object+json", "text/csv",
  ].map(JSONValue.string)

  var json: JSONValue {
    let tables = cache.tables.values.filter {
      $0.name.schema == schema && privileges.tables[$0.name.name] != nil
    }.sorted { $0.name.name < $1.name.name }
    let routines = cache.routines.filter {
      $0.key.schema == schema && privileges.functions.contains($0.key.name)
    }.sorted { $0.key.name < $1.key.name }
    var paths: [JSONObject.Member] = [
      .init(
        "/",
        .object([
          .init(
            "get",
            .object([
              .init(
                "produces",
                .array([.string("application/openapi+json"), .string("application/json")])),
              .init(
                "responses", .object([.init("200", .object([.init("description", .string("OK"))]))])
              ),
              .init("summary", .string("OpenAPI description (this document)")),
              .init("tags", .array([.string("Introspection")])),
            ]))
        ]))
    ]
    var definitions: [JSONObject.Member] = []
    var parameters = Self.commonParameters
    for table in tables {
      paths.append(.init("/" + table.name.name, tablePath(table)))
      definitions.append(.init(table.name.name, definition(table)))
      for column in table.columns {
        parameters.append(
          .init(
            "rowFilter.\(table.name.name).\(column.name)",
            .object(
              [.init("name", .string(column.name))]
                + (column.comment.map { [.init("description", .string($0))] } ?? [])
                + [
                  .init("required", .bool(false)), .init("in", .string("query")),
                  .init("type", .string("string")),
                ])))
      }
      parameters.append(
        .init(
          "body.\(table.name.name)",
          .object([
            .init("name", .string(table.name.name)),
            .init("description", .string(table.name.name)), .init("required", .bool(false)),
            .init("in", .string("body")),
            .init("schema", .object([.init("$ref", .string("#/definitions/\(table.name.name)"))])),
          ])))
    }
    for (name, overloads) in routines {
      guard let routine = overloads.first else { continue }
      paths.append(.init("/rpc/" + name.name, routinePath(routine)))
    }
    return .object([
      .init("swagger", .string("2.0")),
      .init(
        "info",
        .object([
          .init("description", .string("")), .init("title", .string("standard public schema")),
          .init("version", .string("13.0.0 (snm)")),
        ])),
      .init("host", .string(host)), .init("basePath", .string("/rest/v1")),
      .init("schemes", .array([.string("http")])),
      .init("consumes", .array(Self.mediaTypes)), .init("produces", .array(Self.mediaTypes)),
      .init("paths", .object(paths)), .init("definitions", .object(definitions)),
      .init("parameters", .object(parameters)),
      .init(
        "externalDocs",
        .object([
          .init("description", .string("PostgREST Documentation")),
          .init("url", .string("https://postgrest.org/en/v13/references/api.html")),
        ])),
    ])
  }
}
