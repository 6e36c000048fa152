@testable import SNMGateway
@testable import SNMLocalREST

/// libFuzzer entry for the gateway's query string: PostgREST tokenising, the select, filter,
/// logic and order parsers, the read planner and the SQL writer, on arbitrary bytes as the text
/// after `?` of `GET /rest/v1/users`.
///
/// Fails (traps) when a statement's SQL carries a `$n` it has no parameter for, or when an error
/// is not a 4xx/5xx JSON body. Built and run by `scripts/fuzz run rest-query`.
@_cdecl("LLVMFuzzerTestOneInput")
public func restQueryFuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let raw = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
  do {
    let parameters = try QueryParameters.parse(raw)
    for table in [FuzzSchema.users, FuzzSchema.dogs] {
      var planner = ReadPlanner(cache: FuzzSchema.cache)
      var plan = try planner.plan(
        parameters, table: table, name: table.name.name, source: .relation(table.name))
      plan.range = parameters.ranges[[]]
      for count in [CountMethod?.none, .exact, .planned] {
        var sql = SQLWriter()
        try sql.readStatement(
          plan, cache: FuzzSchema.cache, count: count, countLimit: 1001,
          shape: .array(stripNulls: false))
        FuzzSchema.checkPlaceholders(sql.statement)
      }
    }
  } catch {
    let response = error.response
    fuzzCheck((400..<600).contains(response.status), "status \(response.status) for an error")
    fuzzCheck(!response.body.isEmpty, "error without a body")
  }
  return 0
}

/// Two tables with a foreign key between them, as the unit tests of the SQL writer use.
enum FuzzSchema {
  static let users = TableInfo(
    name: QualifiedName(schema: "public", name: "users"), kind: .table,
    columns: [
      ColumnInfo(name: "id", type: "uuid", isNullable: false),
      ColumnInfo(name: "name", type: "text"),
      ColumnInfo(name: "data", type: "jsonb"),
      ColumnInfo(name: "body", type: "tsvector"),
      ColumnInfo(name: "tags", type: "text[]"),
    ], primaryKey: ["id"], uniqueKeys: [["id"]])
  static let dogs = TableInfo(
    name: QualifiedName(schema: "public", name: "dogs"), kind: .table,
    columns: [
      ColumnInfo(name: "id", type: "bigint", isNullable: false),
      ColumnInfo(name: "owner", type: "uuid"),
      ColumnInfo(name: "name", type: "text"),
    ], primaryKey: ["id"], uniqueKeys: [["id"]])

  static let cache: SchemaCache = {
    let tables = [users.name: users, dogs.name: dogs]
    let keys = [
      SchemaCache.ForeignKey(
        name: "dogs_owner_fkey", table: dogs.name, foreignTable: users.name,
        columns: [("owner", "id")])
    ]
    return SchemaCache(
      schemas: ["public"], tables: [users, dogs],
      relationships: SchemaCache.relationships(foreignKeys: keys, tables: tables),
      castTypes: ["text": "\"pg_catalog\".\"text\"", "int4": "\"pg_catalog\".\"int4\""])
  }()

  /// Every `$n` in the SQL outside quotes has a parameter: values never become SQL text.
  static func checkPlaceholders(_ statement: PGStatement) {
    var highest = 0
    var inQuotes = false
    var quote: UInt8 = 0
    let bytes = Array(statement.sql.utf8)
    var index = 0
    while index < bytes.count {
      let byte = bytes[index]
      if inQuotes {
        if byte == quote { inQuotes = false }
      } else if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
        inQuotes = true
        quote = byte
      } else if byte == UInt8(ascii: "$") {
        var number = 0
        var next = index + 1
        while next < bytes.count, (48...57).contains(bytes[next]) {
          number = number * 10 + Int(bytes[next] - 48)
          next += 1
        }
        highest = max(highest, number)
      }
      index += 1
    }
    fuzzCheck(
      highest <= statement.parameters.count,
      "SQL uses $\(highest) with \(statement.parameters.count) parameters")
  }
}
