/// The Swift type of each Postgres type, as PostgREST's JSON carries it.
///
/// Base types by catalog name; a user type by the name the file gives it (``SwiftNames``).
/// Anything unknown is `String`, the text form PostgREST sends for types it has no JSON for
/// (`inet`, `interval`, `tsvector`, `point`, `money`).
struct SwiftTypeMap {
  var names: SwiftNames

  static let base: [String: String] = [
    "bool": "Bool", "int2": "Int16", "int4": "Int32", "int8": "Int64", "float4": "Float",
    "float8": "Double", "numeric": "PGNumeric", "oid": "UInt32", "uuid": "UUID",
    "json": "JSONValue", "jsonb": "JSONValue", "date": "Date", "timestamptz": "Date",
    "timestamp": "Date", "bytea": "PGBytes",
  ]

  func swiftType(_ type: TypeRef) -> String {
    switch type {
    case .base(let name): Self.base[name] ?? "String"
    case .enumeration(let schema, let name), .composite(let schema, let name):
      names.qualifiedType(schema: schema, name: name) ?? "String"
    case .row(let schema, let name):
      names.qualifiedRelation(schema: schema, name: name).map { $0 + ".Select" } ?? "JSONValue"
    case .range: "PGRange"
    // Postgres lets any element be NULL (a column cannot forbid it); a multi-dimensional array
    // is rectangular, so only its innermost elements are optional.
    case .array(let element):
      if case .array = element { "[\(swiftType(element))]" } else { "[\(swiftType(element))?]" }
    case .json: "JSONValue"
    }
  }

  /// Whether a select must ask for the column as text to get all its digits (`numeric`).
  static func needsTextCast(_ type: TypeRef) -> Bool {
    if case .base("numeric") = type { return true }
    return false
  }
}
