import SNMGateway
import SNMWire

/// Loads the schema cache from the catalog: one query (`SchemaIntrospection.sql`) whose JSON
/// answer is decoded here.
///
///     let cache = try SchemaIntrospection.load(database: pool, defaultSchemas: ["public"])
///
/// Throws `PGError` when the query fails, or 503 PGRST002 when its answer cannot be read.
enum SchemaIntrospection {
  static func load(database: PGPool, defaultSchemas: [String]) throws -> SchemaCache {
    try decode(loadText(database: database, defaultSchemas: defaultSchemas))
  }

  /// The catalog query's JSON document. Throws `PGError` or 503 PGRST002.
  ///
  /// JIT is off for the query's transaction only (the cluster keeps Postgres's default, as hosted
  /// Supabase does): its estimated cost is far above `jit_above_cost`, so Postgres compiled it
  /// with LLVM at every gateway start and every reload: 1,889M instructions, 361M without
  /// (callgrind), 1.3 s of wall time against 0.2 s.
  static func loadText(database: PGPool, defaultSchemas: [String]) throws -> String {
    let text = try database.withConnection { connection in
      let results = try connection.pipeline(
        [
          PGStatement("begin read only"),
          PGStatement("set local search_path to pg_catalog"),
          PGStatement("set local jit to off"),
          PGStatement(sql, [defaultSchemas.joined(separator: ",")]),
          PGStatement("commit"),
        ], knownCodeOnly: true)
      return results[3].scalar
    }
    guard let text else { throw RESTError.noSchemaCache }
    return text
  }

  /// The cache from the query's JSON document.
  static func decode(_ text: String) throws(RESTError) -> SchemaCache {
    guard let document = try? JSONValue(parsing: text) else { throw RESTError.noSchemaCache }
    let schemas = document["schemas"]?.arrayValue?.compactMap(\.stringValue) ?? ["public"]
    var tables: [QualifiedName: TableInfo] = [:]
    for item in document["tables"]?.arrayValue ?? [] {
      let table = decodeTable(item)
      tables[table.name] = table
    }
    var representations: [SchemaCache.RepresentationKey: QualifiedName] = [:]
    for row in document["representations"]?.arrayValue ?? [] {
      guard let values = row.arrayValue, values.count == 4, let source = values[0].stringValue,
        let target = values[1].stringValue, let schema = values[2].stringValue,
        let function = values[3].stringValue
      else { continue }
      representations[SchemaCache.RepresentationKey(source: source, target: target)] =
        QualifiedName(schema: schema, name: function)
    }
    SchemaCache.applyRepresentations(representations, to: &tables)
    var foreignKeys: [SchemaCache.ForeignKey] = []
    for item in document["foreign_keys"]?.arrayValue ?? [] {
      guard let name = item["name"]?.stringValue, let schema = item["schema"]?.stringValue,
        let table = item["table"]?.stringValue,
        let foreignSchema = item["foreign_schema"]?.stringValue,
        let foreignTable = item["foreign_table"]?.stringValue
      else { continue }
      var columns: [(String, String)] = []
      var numbers: [(Int, Int)] = []
      for pair in item["columns"]?.arrayValue ?? [] {
        guard let values = pair.arrayValue, values.count >= 2, let own = values[0].stringValue,
          let other = values[1].stringValue
        else { continue }
        columns.append((own, other))
        if values.count == 4, let ownNumber = values[2].intValue,
          let otherNumber = values[3].intValue
        {
          numbers.append((ownNumber, otherNumber))
        }
      }
      foreignKeys.append(
        SchemaCache.ForeignKey(
          name: name, table: QualifiedName(schema: schema, name: table),
          foreignTable: QualifiedName(schema: foreignSchema, name: foreignTable), columns: columns,
          tableOID: item["table_oid"]?.intValue ?? 0,
          foreignOID: item["foreign_oid"]?.intValue ?? 0, columnNumbers: numbers,
          isOneToOne: item["one_to_one"]?.boolValue))
    }
    var viewSources = SchemaCache.ViewKeySources()
    for item in document["views"]?.arrayValue ?? [] {
      guard let oid = item["oid"]?.intValue, let definition = item["definition"]?.stringValue,
        let origins = ViewColumnOrigins.parse(definition)
      else { continue }
      viewSources.origins[oid] = origins
    }
    for item in document["primary_keys"]?.arrayValue ?? [] {
      guard let oid = item["table_oid"]?.intValue else { continue }
      viewSources.primaryKeys[oid] = (item["columns"]?.arrayValue ?? []).compactMap { pair in
        guard let values = pair.arrayValue, values.count == 2, let name = values[0].stringValue,
          let number = values[1].intValue
        else { return nil }
        return (name, number)
      }
    }
    var computed: [Relationship] = []
    for item in document["computed_relationships"]?.arrayValue ?? [] {
      guard let functionSchema = item["function_schema"]?.stringValue,
        let function = item["function"]?.stringValue, let schema = item["schema"]?.stringValue,
        let table = item["table"]?.stringValue,
        let foreignSchema = item["foreign_schema"]?.stringValue,
        let foreignTable = item["foreign_table"]?.stringValue
      else { continue }
      let target = QualifiedName(schema: foreignSchema, name: foreignTable)
      computed.append(
        Relationship(
          table: QualifiedName(schema: schema, name: table), foreignTable: target,
          cardinality: .computed(
            function: QualifiedName(schema: functionSchema, name: function),
            toOne: item["to_one"]?.boolValue ?? false),
          foreignTableIsView: tables[target]?.isView ?? false))
    }
    let relationships = SchemaCache.relationships(
      foreignKeys: foreignKeys, tables: &tables, views: viewSources, computed: computed)
    let routines = (document["routines"]?.arrayValue ?? []).compactMap(decodeRoutine)
    var cache = SchemaCache(
      schemas: schemas, tables: Array(tables.values),
      relationships: relationships,
      routines: routines, castTypes: castTypes(document["types"]?.arrayValue ?? []),
      configuredMaxRows: document["max_rows"]?.stringValue.flatMap { Int($0) })
    cache.preRequest = document["pre_request"]?.stringValue.flatMap(QualifiedName.init(setting:))
    if let extra = document["extra_search_path"]?.stringValue {
      cache.extraSearchPath = extra.split(separator: ",").map { $0.trimmingCharacters(in: " \t") }
        .filter { !$0.isEmpty }
    }
    if let plan = document["plan_enabled"]?.stringValue?.lowercased() {
      cache.planEnabled = ["on", "true", "yes", "1"].contains(plan)
    }
    for row in document["media_handlers"]?.arrayValue ?? [] {
      guard let (key, resolved) = decodeMediaHandler(row) else { continue }
      cache.mediaHandlers[key] = resolved
    }
    if let names = document["timezones"]?.arrayValue {
      cache.timezoneNames = Set(names.compactMap(\.stringValue))
    }
    for (role, settings) in document["impersonated_settings"]?.objectValue ?? JSONObject() {
      cache.roleSettings[role] = settingPairs(settings)
    }
    cache.rlsBypassers = Set(document["rls_bypassers"]?.arrayValue?.compactMap(\.stringValue) ?? [])
    cache.readsMayRunDatabaseCode = document["reads_may_run_database_code"]?.boolValue ?? true
    cache.schemaVersion = document["schema_version"]?.stringValue.flatMap { Int($0) }
    // PostgREST reads booleans of its in-database configuration as true/on/yes/1.
    cache.aggregatesEnabled = ["true", "on", "yes", "1"].contains(
      document["aggregates_enabled"]?.stringValue?.lowercased() ?? "")
    return cache
  }

  /// `[["name", "value"], ...]`: a role's or a function's settings, in order.
  private static func settingPairs(_ value: JSONValue?) -> [(name: String, value: String)] {
    (value?.arrayValue ?? []).compactMap { pair in
      guard let values = pair.arrayValue, values.count == 2, let name = values[0].stringValue,
        let value = values[1].stringValue
      else { return nil }
      return (name, value)
    }
  }

  /// One row of `mediaHandlers`: handler schema and name, target schema and name (null for
  /// `anyelement`), media type, base type, whether it is a cast, the base type's send function.
  private static func decodeMediaHandler(
    _ row: JSONValue
  ) -> (MediaHandlerKey, ResolvedHandler)? {
    guard let values = row.arrayValue, values.count == 8, let schema = values[0].stringValue,
      let name = values[1].stringValue, let type = values[4].stringValue
    else { return nil }
    var target: QualifiedName? = nil
    if let targetSchema = values[2].stringValue, let targetName = values[3].stringValue {
      target = QualifiedName(schema: targetSchema, name: targetName)
    }
    let handler = CustomMediaHandler(
      function: QualifiedName(schema: schema, name: name), target: target,
      isCast: values[6].boolValue ?? false,
      read: CustomMediaHandler.read(base: values[5].stringValue, send: values[7].stringValue))
    let media = MediaType(type)
    return (
      MediaHandlerKey(target: target, media: media),
      ResolvedHandler(handler: .custom(handler), media: media == .any ? .octetStream : media)
    )
  }

  private static func decodeTable(_ item: JSONValue) -> TableInfo {
    let columns = (item["columns"]?.arrayValue ?? []).map { column in
      ColumnInfo(
        name: column["name"]?.stringValue ?? "",
        type: column["type"]?.stringValue ?? "text",
        fullType: column["full_type"]?.stringValue,
        category: column["category"]?.stringValue ?? "S",
        isNullable: column["nullable"]?.boolValue ?? true,
        defaultExpression: column["default"]?.stringValue,
        comment: column["comment"]?.stringValue,
        maxLength: column["max_length"]?.intValue,
        enumValues: column["enum"]?.arrayValue?.compactMap(\.stringValue) ?? [],
        elementType: column["element"]?.stringValue)
    }
    let strings = { (value: JSONValue?) in value?.arrayValue?.compactMap(\.stringValue) ?? [] }
    var table = TableInfo(
      name: QualifiedName(
        schema: item["schema"]?.stringValue ?? "", name: item["name"]?.stringValue ?? ""),
      kind: TableInfo.Kind(rawValue: item["kind"]?.stringValue ?? "r") ?? .table,
      comment: item["comment"]?.stringValue,
      insertable: item["insertable"]?.boolValue ?? false,
      updatable: item["updatable"]?.boolValue ?? false,
      deletable: item["deletable"]?.boolValue ?? false,
      columns: columns, primaryKey: strings(item["primary_key"]),
      uniqueKeys: (item["unique_keys"]?.arrayValue ?? []).map(strings),
      oid: item["oid"]?.intValue ?? 0)
    table.rowSecurity = item["row_security"]?.boolValue ?? true
    table.claimsPolicies = item["claims_policies"]?.boolValue ?? false
    return table
  }

  private static func decodeRoutine(_ item: JSONValue) -> RoutineInfo? {
    guard let schema = item["schema"]?.stringValue, let name = item["name"]?.stringValue,
      let returnType = item["return_type"]?.stringValue
    else { return nil }
    let arguments = item["args"]?.arrayValue ?? []
    let inputs = arguments.filter { ["i", "b", "v"].contains($0["mode"]?.stringValue ?? "i") }
    let outputs = arguments.filter { ["o", "b", "t"].contains($0["mode"]?.stringValue ?? "i") }
    let defaults = item["defaults"]?.intValue ?? 0
    var parameters: [RoutineInfo.Parameter] = []
    for (index, argument) in inputs.enumerated() {
      parameters.append(
        RoutineInfo.Parameter(
          name: argument["name"]?.stringValue ?? "",
          type: argument["type"]?.stringValue ?? "text",
          isRequired: index < inputs.count - defaults,
          isVariadic: argument["mode"]?.stringValue == "v"))
    }
    let kind = item["return_kind"]?.stringValue ?? "b"
    let returns: RoutineInfo.Returns
    if returnType == "void" {
      returns = .void
    } else if kind == "c" {
      var relation: QualifiedName? = nil
      if let relationKind = item["return_relation_kind"]?.stringValue, relationKind != "c",
        let relationSchema = item["return_schema"]?.stringValue,
        let relationName = item["return_relation"]?.stringValue
      {
        relation = QualifiedName(schema: relationSchema, name: relationName)
      }
      let columns = (item["return_columns"]?.arrayValue ?? []).map { column in
        ColumnInfo(
          name: column["name"]?.stringValue ?? "", type: column["type"]?.stringValue ?? "text",
          isNullable: column["nullable"]?.boolValue ?? true)
      }
      returns = .composite(relation: relation, columns: columns)
    } else if returnType == "record" && outputs.isEmpty {
      // An anonymous `record` (no OUT parameters): called as a value, whose JSON keeps the
      // names of the query that built it, as PostgREST treats it (a scalar).
      returns = .scalar(type: "record")
    } else if returnType == "record" {
      returns = .composite(
        relation: nil,
        columns: outputs.map { column in
          ColumnInfo(
            name: column["name"]?.stringValue ?? "", type: column["type"]?.stringValue ?? "text")
        })
    } else if kind == "p" {
      return nil
    } else {
      returns = .scalar(type: returnType)
    }
    var routine = RoutineInfo(
      name: QualifiedName(schema: schema, name: name), parameters: parameters, returns: returns,
      returnsSet: item["returns_set"]?.boolValue ?? false,
      volatility: RoutineInfo.Volatility(rawValue: item["volatility"]?.stringValue ?? "v")
        ?? .volatile,
      comment: item["comment"]?.stringValue)
    routine.settings = settingPairs(item["settings"])
    return routine
  }

  /// Cast names to quoted type text: type names, their SQL spellings (`integer`,
  /// `character varying`), and the usual aliases (`int`, `float`, `decimal`, `char`).
  private static func castTypes(_ rows: [JSONValue]) -> [String: String] {
    var map: [String: String] = [:]
    for row in rows {
      guard let values = row.arrayValue, values.count == 3, let schema = values[0].stringValue,
        let name = values[1].stringValue, let formatted = values[2].stringValue
      else { continue }
      let sql = SQLText.identifier(schema) + "." + SQLText.identifier(name)
      for key in [name.lowercased(), formatted.lowercased()] {
        if map[key] == nil || schema == "pg_catalog" { map[key] = sql }
      }
    }
    for (alias, target) in [
      ("int", "int4"), ("float", "float8"), ("decimal", "numeric"), ("char", "bpchar"),
      ("double", "float8"), ("dec", "numeric"),
    ] {
      if let sql = map[target] { map[alias] = sql }
    }
    return map
  }
}
