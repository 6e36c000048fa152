import SNMNetwork
import SNMSupabase
import SNMWire

extension SchemaCatalog {
  /// The rows `tables` prints: each table or view, its column count and what the role may do.
  public func tableRows() -> JSONValue {
    guard let schema else {
      return .array(tableNames().map { ["table": .string($0)] })
    }
    return .array(
      schema.tables.map { table in
        [
          "table": .string(table.name), "columns": .number(JSONNumber(table.columns.count)),
          "insert": .bool(table.canInsert), "update": .bool(table.canUpdate),
          "delete": .bool(table.canDelete),
        ]
      })
  }

  /// The rows `describe` prints for a table (one per column) or a function (one per argument);
  /// nil when neither is known.
  public func describeRows(_ name: String) -> JSONValue? {
    if let table = schema?.table(named: name) {
      return .array(
        table.columns.map { column in
          var key: [String] = []
          if column.isPrimaryKey { key.append("primary key") }
          if let target = column.foreignKey { key.append("-> \(target.table).\(target.column)") }
          return [
            "column": .string(column.name), "type": .string(column.type),
            "nullable": .bool(!column.isRequired),
            "default": column.defaultValue.map { .string($0) } ?? .null,
            "key": .string(key.joined(separator: ", ")),
          ]
        })
    }
    if let function = schema?.function(named: name) {
      return .array(
        function.arguments.map { argument in
          [
            "argument": .string(argument.name), "type": .string(argument.type),
            "required": .bool(argument.isRequired),
            "rpc get": .bool(function.allowsGet),
          ]
        })
    }
    let seen = columns(of: name)
    guard !seen.isEmpty else { return nil }
    return .array(seen.map { ["column": .string($0)] })
  }
}
