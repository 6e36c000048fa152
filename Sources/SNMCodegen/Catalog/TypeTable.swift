import SNMWire

/// The catalog's `pg_type` rows by oid, resolving a column's type to a ``TypeRef``: domains to
/// their base, arrays to their element, user types to their schema and name.
struct TypeTable {
  struct Row {
    var schema: String
    var name: String
    var kind: String
    var element: Int?
    var base: Int?
    var relationKind: String?
    var relationName: String?
  }

  var rows: [Int: Row] = [:]
  /// The schemas being generated: user types elsewhere are read as their text or JSON.
  var schemas: Set<String>

  init(_ items: [JSONValue], schemas: Set<String>) {
    self.schemas = schemas
    for item in items {
      guard let oid = item["oid"]?.intValue else { continue }
      rows[oid] = Row(
        schema: item["schema"]?.stringValue ?? "", name: item["name"]?.stringValue ?? "",
        kind: item["kind"]?.stringValue ?? "b", element: item["element"]?.intValue,
        base: item["base"]?.intValue, relationKind: item["relkind"]?.stringValue,
        relationName: item["relname"]?.stringValue)
    }
  }

  /// The type `oid` names, or `.json` for one the table does not hold.
  func reference(_ oid: Int, depth: Int = 0) -> TypeRef {
    guard depth < 16, let row = rows[oid] else { return .json }
    if let element = row.element { return .array(reference(element, depth: depth + 1)) }
    let included = schemas.contains(row.schema)
    switch row.kind {
    case "d":
      return row.base.map { reference($0, depth: depth + 1) } ?? .json
    case "e":
      return included ? .enumeration(schema: row.schema, name: row.name) : .base("text")
    case "r":
      return .range(row.name)
    case "m":
      return .base("text")
    case "c":
      guard included, let relationName = row.relationName else { return .json }
      return row.relationKind == "c"
        ? .composite(schema: row.schema, name: relationName)
        : .row(schema: row.schema, name: relationName)
    case "p":
      return .json
    default:
      return .base(row.name)
    }
  }

  /// The type of a column declared with `dimensions` (`int4[][]`: 2; Postgres keeps the number
  /// a table's column is declared with, 0 for a view's): an array of arrays for each one past
  /// the first, so a two-dimensional value decodes. 0 or 1 is the array type as it is.
  func reference(_ oid: Int, dimensions: Int) -> TypeRef {
    var type = reference(oid)
    guard case .array = type, dimensions > 1 else { return type }
    for _ in 1..<min(dimensions, 6) { type = .array(type) }
    return type
  }

  /// Whether `oid` is a pseudo-type a client cannot send (`internal`, `trigger`, `anyelement`).
  func isUnsendable(_ oid: Int) -> Bool {
    guard let row = rows[oid] else { return true }
    return row.kind == "p" && !["record", "void", "json"].contains(row.name)
  }

  /// A function PostgREST can call with a JSON object of named arguments; nil for one it cannot
  /// (a trigger, an argument without a name or of a pseudo-type).
  func function(_ item: JSONValue) -> DatabaseCatalog.Function? {
    let types = (item["arg_types"]?.arrayValue ?? []).compactMap(\.intValue)
    let names = (item["arg_names"]?.arrayValue ?? []).map { $0.stringValue ?? "" }
    let modes = (item["arg_modes"]?.arrayValue ?? []).map { $0.stringValue ?? "i" }
    let defaults = item["defaults"]?.intValue ?? 0
    guard let returns = item["returns"]?.intValue,
      !isUnsendable(returns) || rows[returns]?.name == "void"
    else { return nil }
    var arguments: [DatabaseCatalog.Column] = []
    var outputs: [DatabaseCatalog.Column] = []
    for (index, oid) in types.enumerated() {
      let mode = index < modes.count ? modes[index] : "i"
      let name = index < names.count ? names[index] : ""
      let column = DatabaseCatalog.Column(name: name, type: reference(oid), nullable: true)
      if mode == "o" || mode == "t" || mode == "b" { outputs.append(column) }
      if mode == "i" || mode == "b" || mode == "v" {
        guard !name.isEmpty, !isUnsendable(oid) else { return nil }
        arguments.append(column)
      }
    }
    for index in arguments.indices where index >= arguments.count - defaults {
      arguments[index].hasDefault = true
    }
    let set = item["set"]?.boolValue == true
    let result: DatabaseCatalog.Function.Result
    if !outputs.isEmpty {
      result =
        outputs.count == 1 && modes.allSatisfy({ $0 != "t" })
        ? .value(outputs[0].type, set: set) : .rows(outputs, set: set)
    } else if rows[returns]?.name == "void" {
      result = .none
    } else {
      result = .value(reference(returns), set: set)
    }
    return DatabaseCatalog.Function(
      schema: item["schema"]?.stringValue ?? "", name: item["name"]?.stringValue ?? "",
      arguments: arguments, result: result, comment: item["comment"]?.stringValue)
  }
}
