import SNMWire

/// Paths, definitions and shared parameters of the OpenAPI document.
extension OpenAPIDocument {
  static func reference(_ name: String) -> JSONValue {
    .object([.init("$ref", .string("#/parameters/\(name)"))])
  }

  /// What a function's operations produce (makeProcPathItem: no CSV).
  static let routineMediaTypes: [JSONValue] = [
    "application/json", "application/vnd.pgrst.object+json;nulls=stripped",
    "application/vnd.pgrst.object+json",
  ].map(JSONValue.string)

  /// A table's path: `get` always; `post`, `patch` and `delete` together when the relation can
  /// be written at all (a table, an updatable view), whatever the role's privileges, as
  /// PostgREST's `makePathItem` has it. The comment's first line is each operation's summary, the
  /// rest its description.
  func tablePath(_ table: TableInfo) -> JSONValue {
    let name = table.name.name
    let filters = table.columns.map { Self.reference("rowFilter.\(name).\($0.name)") }
    let tags = JSONValue.array([.string(name)])
    let summary = Self.summary(table.comment)
    func response(_ code: String, _ text: String, schema: JSONValue? = nil) -> JSONObject.Member {
      var members: [JSONObject.Member] = [.init("description", .string(text))]
      if let schema { members.append(.init("schema", schema)) }
      return .init(code, .object(members))
    }
    func operation(_ parameters: [JSONValue], _ responses: [JSONObject.Member]) -> JSONValue {
      .object(
        summary + [
          .init("parameters", .array(parameters)), .init("responses", .object(responses)),
          .init("tags", tags),
        ])
    }
    var operations: [JSONObject.Member] = [
      .init(
        "get",
        operation(
          filters
            + ["select", "order", "range", "rangeUnit", "offset", "limit", "preferCount"].map(
              Self.reference),
          [
            response(
              "200", "OK",
              schema: .object([
                .init("items", .object([.init("$ref", .string("#/definitions/\(name)"))])),
                .init("type", .string("array")),
              ])),
            response("206", "Partial Content"),
          ]))
    ]
    if table.insertable || table.updatable || table.deletable {
      operations += [
        .init(
          "post",
          operation(
            ["body.\(name)", "select", "preferPost"].map(Self.reference),
            [response("201", "Created")])),
        .init(
          "delete",
          operation(filters + [Self.reference("preferReturn")], [response("204", "No Content")])),
        .init(
          "patch",
          operation(
            filters + [Self.reference("body.\(name)"), Self.reference("preferReturn")],
            [response("204", "No Content")])),
      ]
    }
    return .object(operations)
  }

  /// A comment's first line as `summary` and the rest (leading newlines dropped) as
  /// `description`, as PostgREST splits table and function comments.
  static func summary(_ comment: String?) -> [JSONObject.Member] {
    guard let comment else { return [] }
    let first = comment.prefix { $0 != "\n" }
    let rest = comment.dropFirst(first.count).drop { $0 == "\n" }
    var members: [JSONObject.Member] = [.init("summary", .string(String(first)))]
    if !rest.isEmpty { members.append(.init("description", .string(String(rest)))) }
    return members
  }

  func routinePath(_ routine: RoutineInfo) -> JSONValue {
    let tags = JSONValue.array([.string("(rpc) \(routine.name.name)")])
    let responses = JSONValue.object([.init("200", .object([.init("description", .string("OK"))]))])
    var properties: [JSONObject.Member] = []
    for parameter in routine.parameters where !parameter.name.isEmpty {
      properties.append(
        .init(
          parameter.name,
          .object(
            Self.typeMembers(type: parameter.type, element: Self.elementType(parameter.type)))))
    }
    let required = routine.parameters.filter { $0.isRequired && !$0.name.isEmpty }.map {
      JSONValue.string($0.name)
    }
    let summary = Self.summary(routine.comment)
    var operations: [JSONObject.Member] = [
      .init(
        "post",
        .object(
          summary + [
            .init(
              "parameters",
              .array([
                .object([
                  .init("in", .string("body")), .init("name", .string("args")),
                  .init("required", .bool(true)),
                  .init(
                    "schema",
                    .object([
                      .init("properties", .object(properties)), .init("required", .array(required)),
                      .init("type", .string("object")),
                    ])),
                ]),
                Self.reference("preferParams"),
              ])),
            .init("produces", .array(Self.routineMediaTypes)), .init("responses", responses),
            .init("tags", tags),
          ]))
    ]
    if routine.volatility != .volatile {
      let query = routine.parameters.filter { !$0.name.isEmpty }.map { parameter in
        JSONValue.object(
          [
            .init("format", .string(parameter.type)), .init("in", .string("query")),
            .init("name", .string(parameter.name)), .init("required", .bool(parameter.isRequired)),
          ]
            + Self.typeMembers(type: parameter.type, element: Self.elementType(parameter.type))
            .filter { $0.key != "format" })
      }
      operations.insert(
        .init(
          "get",
          .object(
            summary + [
              .init("parameters", .array(query)), .init("produces", .array(Self.routineMediaTypes)),
              .init("responses", responses), .init("tags", tags),
            ])), at: 0)
    }
    return .object(operations)
  }

  func definition(_ table: TableInfo) -> JSONValue {
    var properties: [JSONObject.Member] = []
    for column in table.columns {
      var members: [JSONObject.Member] = []
      if let defaultValue = Self.defaultValue(column) {
        members.append(.init("default", defaultValue))
      }
      if let text = description(column, of: table) {
        members.append(.init("description", .string(text)))
      }
      if !column.enumValues.isEmpty {
        members.append(.init("enum", .array(column.enumValues.map(JSONValue.string))))
      }
      members += Self.typeMembers(type: column.type, element: column.elementType)
      if let maxLength = column.maxLength { members.append(.init("maxLength", .int(maxLength))) }
      properties.append(.init(column.name, .object(members)))
    }
    // Every NOT NULL column, with a default or not (`makeTableDef`).
    let required = table.columns.filter { !$0.isNullable }.map { JSONValue.string($0.name) }
    var members: [JSONObject.Member] = []
    if let comment = table.comment { members.append(.init("description", .string(comment))) }
    members += [
      .init("properties", .object(properties)), .init("required", .array(required)),
      .init("type", .string("object")),
    ]
    return .object(members)
  }

  /// A column default as PostgREST's `parseDefault` gives it: for a type shown as a string, the
  /// expression without its `::type` cast and quotes, as a JSON string (`'pending'::text` ->
  /// `"pending"`, `now()` -> `"now()"`); for any other type the expression itself read as JSON
  /// (`false`, `42`); nil when that is not JSON (`nextval(...)`, `'{}'::jsonb`).
  static func defaultValue(_ column: ColumnInfo) -> JSONValue? {
    guard let expression = column.defaultExpression else { return nil }
    var text = expression
    if !column.type.hasSuffix("[]"), swaggerType(column.type) == "string" {
      var bare = Substring(expression)
      if bare.hasSuffix("::" + column.type) {
        bare = bare.dropLast(column.type.count + 2)
        while bare.first == "'" { bare = bare.dropFirst() }
        while bare.last == "'" { bare = bare.dropLast() }
      }
      text = "\"" + bare + "\""
    }
    return try? JSONValue(parsing: text)
  }

  /// The column comment, then the key notes PostgREST adds.
  func description(_ column: ColumnInfo, of table: TableInfo) -> String? {
    var notes: [String] = []
    if table.primaryKey.contains(column.name) { notes.append("This is a Primary Key.<pk/>") }
    // The first single-column many-to-one of the column, tables before views (OpenAPI.hs).
    let relationships = cache.relationships[table.name] ?? []
    let ordered =
      relationships.filter { !$0.foreignTableIsView } + relationships.filter(\.foreignTableIsView)
    for relationship in ordered {
      guard case .manyToOne(_, let pairs) = relationship.cardinality, pairs.count == 1,
        pairs[0].0 == column.name
      else { continue }
      let target = relationship.foreignTable.name
      notes.append(
        "This is a Foreign Key to `\(target).\(pairs[0].1)`.<fk table='\(target)' column='\(pairs[0].1)'/>"
      )
      break
    }
    let note = notes.isEmpty ? nil : "Note:\n" + notes.joined(separator: "\n")
    switch (column.comment, note) {
    case (let comment?, let note?): return comment + "\n\n" + note
    case (let comment?, nil): return comment
    case (nil, let note?): return note
    case (nil, nil): return nil
    }
  }

  /// `type` (and `items` for arrays) and `format` for a Postgres type, as PostgREST maps them.
  static func typeMembers(type: String, element: String?) -> [JSONObject.Member] {
    if type.hasSuffix("[]") {
      let elementName = element ?? String(type.dropLast(2))
      return [
        .init("format", .string(type)),
        .init("items", .object([.init("type", .string(swaggerType(elementName) ?? "string"))])),
        .init("type", .string("array")),
      ]
    }
    var members: [JSONObject.Member] = [.init("format", .string(type))]
    if let swagger = swaggerType(type) { members.append(.init("type", .string(swagger))) }
    return members
  }

  static func elementType(_ type: String) -> String? {
    type.hasSuffix("[]") ? String(type.dropLast(2)) : nil
  }

  static func swaggerType(_ type: String) -> String? {
    switch type {
    case "json", "jsonb": nil
    case "boolean": "boolean"
    case "smallint", "integer", "bigint": "integer"
    case "numeric", "real", "double precision": "number"
    default: "string"
    }
  }

  static let commonParameters: [JSONObject.Member] = {
    func parameter(_ members: [JSONObject.Member]) -> JSONValue { .object(members) }
    func header(
      _ name: String, _ description: String, _ values: [String], defaultValue: String? = nil
    )
      -> JSONValue
    {
      var members: [JSONObject.Member] = [
        .init("name", .string("Prefer")), .init("description", .string(description)),
        .init("required", .bool(false)), .init("in", .string("header")),
        .init("type", .string("string")),
        .init("enum", .array(values.map(JSONValue.string))),
      ]
      if let defaultValue { members.append(.init("default", .string(defaultValue))) }
      _ = name
      return .object(members)
    }
    func query(_ name: String, _ description: String) -> JSONValue {
      parameter([
        .init("name", .string(name)), .init("description", .string(description)),
        .init("required", .bool(false)), .init("in", .string("query")),
        .init("type", .string("string")),
      ])
    }
    return [
      .init("preferParams", header("preferParams", "Preference", ["params=single-object"])),
      .init(
        "preferReturn",
        header(
          "preferReturn", "Preference", ["return=representation", "return=minimal", "return=none"])),
      .init("preferCount", header("preferCount", "Preference", ["count=none"])),
      .init(
        "preferPost",
        header(
          "preferPost", "Preference",
          [
            "return=representation", "return=minimal", "return=none",
            "resolution=ignore-duplicates", "resolution=merge-duplicates",
          ])),
      .init("select", query("select", "Filtering Columns")),
      .init("on_conflict", query("on_conflict", "On Conflict")),
      .init("order", query("order", "Ordering")),
      .init(
        "range",
        parameter([
          .init("name", .string("Range")), .init("description", .string("Limiting and Pagination")),
          .init("required", .bool(false)), .init("in", .string("header")),
          .init("type", .string("string")),
        ])),
      .init(
        "rangeUnit",
        parameter([
          .init("name", .string("Range-Unit")),
          .init("description", .string("Limiting and Pagination")),
          .init("required", .bool(false)), .init("in", .string("header")),
          .init("type", .string("string")), .init("default", .string("items")),
        ])),
      .init("offset", query("offset", "Limiting and Pagination")),
      .init("limit", query("limit", "Limiting and Pagination")),
    ]
  }()
}
