import SNMNetwork
import SNMSupabase
import SNMWire

extension SchemaCatalog {
  /// What `describe` shows: a title line, the rows, and notes printed under them (the keys, and
  /// what the OpenAPI document cannot say), as psql's `\d` prints a table's footer.
  public struct Description: Sendable, Equatable {
    /// `Table "dog_profile"`, `View "adults"`, `Function "sum"`; nil when only results were seen.
    public var title: String?
    public var rows: JSONValue
    public var notes: [String]
  }

  /// The columns of `table` as the document lists them (what `*` selects); nil when the document
  /// does not list the table (columns seen in results may be a part of them).
  public func knownColumns(_ table: String) -> [String]? {
    schema?.table(named: table)?.columns.map(\.name)
  }

  /// The rows `tables` prints: each table or view, its type and its column count. A `view` is a
  /// relation the API offers only for reading; an updatable view reads as `table` (the document
  /// does not tell them apart).
  public func tableRows() -> JSONValue {
    guard let schema else {
      return .array(tableNames().map { ["name": .string($0)] })
    }
    return .array(
      schema.tables.map { table in
        [
          "name": .string(table.name), "type": .string(table.isReadOnly ? "view" : "table"),
          "columns": .number(JSONNumber(table.columns.count)),
        ]
      })
  }

  /// What `describe` (`detailed`: `describe+`) shows for a table or view (one row per column) or a
  /// function (one per argument); nil when neither is known.
  public func describe(_ name: String, detailed: Bool = false) -> Description? {
    if let table = schema?.table(named: name) { return Self.describe(table, detailed: detailed) }
    if let function = schema?.function(named: name) {
      var notes: [String] = []
      if detailed, let text = function.description { notes.append("Description: \(text)") }
      notes.append(
        function.isVolatile
          ? "Called with rpc; it is VOLATILE: rpc get runs it read-only (fails if it writes)."
          : "Called with rpc or rpc get.")
      return Description(
        title: "Function \"\(function.name)\"",
        rows: .array(
          function.arguments.map { argument in
            [
              "argument": .string(argument.name), "type": .string(argument.type),
              "required": .bool(argument.isRequired),
            ]
          }), notes: notes)
    }
    let seen = columns(of: name)
    guard !seen.isEmpty else { return nil }
    return Description(
      title: nil, rows: .array(seen.map { ["column": .string($0)] }),
      notes: ["Only the columns seen in results: the project did not give its OpenAPI document."])
  }

  /// A table's or view's columns: type (with length), nullable, default, key; `detailed` adds
  /// each column's comment and the table's.
  static func describe(_ table: TableSchema, detailed: Bool) -> Description {
    let rows = table.columns.map { column -> JSONValue in
      var key: [String] = []
      if column.isPrimaryKey { key.append("primary key") }
      if let target = column.foreignKey { key.append("-> \(target.table).\(target.column)") }
      var row: JSONObject = [
        "column": .string(column.name), "type": .string(column.typeWithLength),
        "nullable": .bool(!column.isRequired),
        "default": .string(column.defaultValue ?? ""),
        "key": .string(key.joined(separator: ", ")),
      ]
      if detailed {
        var text = column.description ?? ""
        if !column.enumValues.isEmpty {
          text += (text.isEmpty ? "" : "; ") + "one of " + column.enumValues.joined(separator: ", ")
        }
        row["description"] = .string(text)
      }
      return .object(row)
    }
    var notes: [String] = []
    if detailed, let comment = table.description { notes.append("Description: \(comment)") }
    if !table.primaryKey.isEmpty {
      notes.append("Primary key: (\(table.primaryKey.joined(separator: ", ")))")
    }
    let references = table.columns.compactMap { column in
      column.foreignKey.map { "(\(column.name)) -> \($0.table)(\($0.column))" }
    }
    if !references.isEmpty { notes.append("Foreign keys: " + references.joined(separator: ", ")) }
    if table.isReadOnly {
      notes.append("Read-only: the API offers no insert, update or delete on it.")
    }
    notes.append(
      "Not in the API's description (psql's \\d shows them): unique and check constraints,\n"
        + "indexes, triggers, numeric precision and scale, defaults that are not plain values.")
    return Description(
      title: "\(table.isReadOnly ? "View" : "Table") \"\(table.name)\"", rows: .array(rows),
      notes: notes)
  }
}
