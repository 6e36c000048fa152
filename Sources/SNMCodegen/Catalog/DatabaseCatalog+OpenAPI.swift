import SNMWire

extension DatabaseCatalog {
  /// What the OpenAPI documents PostgREST serves say about `schemas` (one document per schema,
  /// each fetched with `Accept-Profile`), with what they cannot say in ``limits``.
  ///
  /// A document lists the tables and functions the key's role may use: the anon key's role sees
  /// what it was granted (a hosted project may refuse it the document), the service key sees
  /// every table, view and function of the exposed schemas.
  public init(openAPI documents: [(schema: String, document: JSONValue)], source: String) {
    self.init(schemas: documents.map(\.schema), source: source)
    limits = [
      "From the OpenAPI document: no composite types (their columns are JSONValue), no column "
        + "defaults or generated columns (every Insert field is optional), no views told from "
        + "tables, no function results (Returns is JSONValue), only the enums that columns use.",
      "The document lists what the key's role may use; the service key's lists everything in "
        + "the exposed schemas. The local project's catalog (snm gen swift --local) has it all.",
    ]
    var enumsByName: [String: EnumType] = [:]
    for (schema, document) in documents {
      let definitions = document["definitions"]?.objectValue ?? JSONObject()
      let paths = document["paths"]?.objectValue ?? JSONObject()
      for (name, definition) in definitions {
        let required = Set((definition["required"]?.arrayValue ?? []).compactMap(\.stringValue))
        var primaryKey: [String] = []
        var columns: [Column] = []
        for (column, property) in definition["properties"]?.objectValue ?? JSONObject() {
          let (comment, notes) = Self.splitNotes(property["description"]?.stringValue)
          if notes.contains("<pk/>") { primaryKey.append(column) }
          let type = Self.openAPIType(property, schema: schema, enums: &enumsByName)
          columns.append(
            Column(
              name: column, type: type, nullable: !required.contains(column), hasDefault: true,
              comment: comment))
        }
        let path = paths["/" + name]
        relations.append(
          Relation(
            schema: schema, name: name, kind: .table,
            comment: Self.splitNotes(definition["description"]?.stringValue).comment,
            columns: columns, insertable: path?["post"] != nil, updatable: path?["patch"] != nil,
            primaryKey: primaryKey))
      }
      for (path, item) in paths where path.hasPrefix("/rpc/") {
        let operation = item["post"] ?? item["get"]
        let body = operation?["parameters"]?.arrayValue?.first { $0["in"]?.stringValue == "body" }
        let required = Set(
          (body?["schema"]?["required"]?.arrayValue ?? []).compactMap(\.stringValue))
        var arguments: [Column] = []
        for (name, property) in body?["schema"]?["properties"]?.objectValue ?? JSONObject() {
          arguments.append(
            Column(
              name: name, type: Self.openAPIType(property, schema: schema, enums: &enumsByName),
              nullable: true, hasDefault: !required.contains(name)))
        }
        let summary = operation?["summary"]?.stringValue
        let details = operation?["description"]?.stringValue
        let comment = [summary, details].compactMap { $0 }.joined(separator: "\n\n")
        functions.append(
          Function(
            schema: schema, name: String(path.dropFirst(5)), arguments: arguments,
            result: .unknown, comment: comment.isEmpty ? nil : comment))
      }
    }
    relations.sort { ($0.schema, $0.name) < ($1.schema, $1.name) }
    functions.sort { ($0.schema, $0.name) < ($1.schema, $1.name) }
    enums = enumsByName.values.sorted { ($0.schema, $0.name) < ($1.schema, $1.name) }
  }

  /// A description without the notes PostgREST appends (`Note:\nThis is a Primary Key.<pk/>`).
  static func splitNotes(_ text: String?) -> (comment: String?, notes: String) {
    guard let text else { return (nil, "") }
    if text.hasPrefix("Note:\n") { return (nil, text) }
    guard let range = text.range(of: "\n\nNote:\n") else { return (text, "") }
    return (String(text[..<range.lowerBound]), String(text[range.lowerBound...]))
  }

  /// PostgREST's `format` names (`bigint`, `timestamp with time zone`) as catalog names.
  static let formatNames: [String: String] = [
    "smallint": "int2", "integer": "int4", "bigint": "int8", "real": "float4",
    "double precision": "float8", "numeric": "numeric", "boolean": "bool", "uuid": "uuid",
    "json": "json", "jsonb": "jsonb", "date": "date", "timestamp with time zone": "timestamptz",
    "timestamp without time zone": "timestamp", "bytea": "bytea", "text": "text",
    "character varying": "text", "character": "text", "citext": "text", "name": "text",
    "time with time zone": "text", "time without time zone": "text", "interval": "text",
    "inet": "text", "cidr": "text", "macaddr": "text", "money": "text", "tsvector": "text",
    "xml": "text", "oid": "oid",
  ]

  static func openAPIType(
    _ property: JSONValue, schema: String, enums: inout [String: EnumType]
  ) -> TypeRef {
    let format = property["format"]?.stringValue ?? ""
    if format.hasSuffix("[]") || property["type"]?.stringValue == "array" {
      var element = property["items"] ?? .null
      if format.hasSuffix("[]"), case .object(var members) = element {
        members.append("format", .string(String(format.dropLast(2))))
        element = .object(members)
      }
      return .array(openAPIType(element, schema: schema, enums: &enums))
    }
    if let labels = property["enum"]?.arrayValue?.compactMap(\.stringValue), !labels.isEmpty {
      let parts = format.split(separator: ".", maxSplits: 1).map(String.init)
      let owner = parts.count == 2 ? parts[0] : schema
      let name = parts.last ?? format
      guard owner == schema else { return .base("text") }
      enums[owner + "." + name] = EnumType(schema: owner, name: name, labels: labels)
      return .enumeration(schema: owner, name: name)
    }
    if let base = formatNames[format] { return .base(base) }
    if format.hasSuffix("range") { return .range(format) }
    if format.hasPrefix("character varying") || format.hasPrefix("character(")
      || format.hasPrefix("numeric(")
    {
      return .base(format.hasPrefix("numeric") ? "numeric" : "text")
    }
    return .json
  }
}
