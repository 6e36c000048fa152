import SNMNetwork
import SNMWire

/// Why an OpenAPI document could not be read.
public struct SchemaDocumentError: Error, Sendable, Equatable, CustomStringConvertible {
  public let description: String

  public init(_ description: String) {
    self.description = description
  }
}

extension DatabaseSchema {
  /// Reads PostgREST's Swagger 2.0 document (`GET /rest/v1/`).
  ///
  /// Tables come from `paths` `/<name>` and their columns from `definitions.<name>`; keys from the
  /// `<pk/>` and `<fk table='t' column='c'/>` notes in column descriptions; functions from
  /// `/rpc/<name>` with the body's argument schema. Unknown parts are ignored.
  /// - Throws: `SchemaDocumentError` when `document` is not a Swagger object with `paths`.
  public init(openAPI document: JSONValue) throws(SchemaDocumentError) {
    guard let root = document.objectValue, let paths = root["paths"]?.objectValue else {
      throw SchemaDocumentError("not an OpenAPI document: no \"paths\" object")
    }
    let definitions = root["definitions"]?.objectValue ?? JSONObject()
    var tables: [TableSchema] = []
    var functions: [FunctionSchema] = []
    for (path, operations) in paths {
      guard let operations = operations.objectValue, path.hasPrefix("/"), path != "/" else {
        continue
      }
      let name = String(path.dropFirst())
      if name.hasPrefix("rpc/") {
        functions.append(Self.function(String(name.dropFirst(4)), operations))
      } else if !name.contains("/") {
        tables.append(Self.table(name, operations, definitions[name]?.objectValue))
      }
    }
    self.init(tables: tables, functions: functions)
  }

  static func table(_ name: String, _ operations: JSONObject, _ definition: JSONObject?)
    -> TableSchema
  {
    let required = Set(definition?["required"]?.arrayValue?.compactMap(\.stringValue) ?? [])
    var columns: [ColumnSchema] = []
    for (column, property) in definition?["properties"]?.objectValue ?? JSONObject() {
      let property = property.objectValue ?? JSONObject()
      let note = property["description"]?.stringValue
      columns.append(
        ColumnSchema(
          name: column, type: Self.typeName(property), isRequired: required.contains(column),
          isPrimaryKey: note?.contains("<pk/>") == true, foreignKey: note.flatMap(Self.foreignKey),
          defaultValue: Self.text(property["default"]), description: note.flatMap(Self.comment),
          maxLength: property["maxLength"]?.intValue,
          enumValues: property["enum"]?.arrayValue?.compactMap(\.stringValue) ?? []))
    }
    return TableSchema(
      name: name, columns: columns, description: definition?["description"]?.stringValue,
      canInsert: operations["post"] != nil, canUpdate: operations["patch"] != nil,
      canDelete: operations["delete"] != nil)
  }

  static func function(_ name: String, _ operations: JSONObject) -> FunctionSchema {
    var arguments: [FunctionSchema.Argument] = []
    let post = operations["post"]?.objectValue
    let parameters = post?["parameters"]?.arrayValue ?? []
    if let body = parameters.first(where: { $0["in"]?.stringValue == "body" }),
      let schema = body["schema"]?.objectValue
    {
      let required = Set(schema["required"]?.arrayValue?.compactMap(\.stringValue) ?? [])
      for (argument, property) in schema["properties"]?.objectValue ?? JSONObject() {
        arguments.append(
          .init(
            name: argument, type: typeName(property.objectValue ?? JSONObject()),
            isRequired: required.contains(argument)))
      }
    } else if let get = operations["get"]?.objectValue {
      for parameter in get["parameters"]?.arrayValue ?? [] {
        guard let argument = parameter["name"]?.stringValue else { continue }
        arguments.append(
          .init(
            name: argument, type: typeName(parameter.objectValue ?? JSONObject()),
            isRequired: parameter["required"]?.boolValue ?? false))
      }
    }
    let summary = (post ?? operations["get"]?.objectValue)?["summary"]?.stringValue
    return FunctionSchema(
      name: name, arguments: arguments, isVolatile: operations["get"] == nil, description: summary)
  }

  /// The Postgres type: `format` (`uuid`, `timestamp with time zone`, `text[]`), else `type`.
  /// PostgREST 14.8 and later say `int64` for bigint and `int32` for both integer and smallint,
  /// which are named for what they can be.
  static func typeName(_ property: JSONObject) -> String {
    if let format = property["format"]?.stringValue, !format.isEmpty {
      switch format {
      case "int64": return "bigint"
      case "int32": return "integer or smallint"
      default: return format
      }
    }
    if let type = property["type"]?.stringValue { return type }
    return "json"
  }

  /// `<fk table='entities' column='id'/>` -> entities.id.
  static func foreignKey(_ note: String) -> ColumnSchema.ForeignKey? {
    guard let start = note.range(of: "<fk ") else { return nil }
    let tag = note[start.upperBound...].prefix { $0 != ">" }
    func attribute(_ name: String) -> String? {
      guard let open = tag.range(of: name + "='") else { return nil }
      return String(tag[open.upperBound...].prefix { $0 != "'" })
    }
    guard let table = attribute("table"), let column = attribute("column") else { return nil }
    return .init(table: table, column: column)
  }

  /// A column comment without PostgREST's `Note:` key annotations.
  static func comment(_ note: String) -> String? {
    let text = note.components(separatedBy: "\n\nNote:").first ?? note
    let trimmed = text.hasPrefix("Note:") ? "" : text
    return trimmed.isEmpty ? nil : trimmed
  }

  static func text(_ value: JSONValue?) -> String? {
    switch value {
    case .string(let text): text
    case .number(let number): number.text
    case .bool(let flag): flag ? "true" : "false"
    default: nil
    }
  }
}
