import Foundation
import SNMSupabase
import SNMWire

/// A query's request as a supabase-swift chain (`supabase.from(...).select(...).eq(...)`), naming
/// the table and its columns by what `snm gen swift` generated (``GeneratedSwiftNames``:
/// `PublicSchema.DogProfile.tableName`, `PublicSchema.DogProfile.Columns.name.rawValue`), as
/// `explain` prints it when `SNM_GEN_SWIFT` names the generated file.
///
/// ```swift
/// SupabaseSwiftChain(request, names: names).lines
/// // try await supabase.from(PublicSchema.DogProfile.tableName)
/// //   .select("id,name")
/// //   .eq(PublicSchema.DogProfile.Columns.name.rawValue, value: "Bori")
/// //   .execute()
/// ```
/// A filter other than `eq` is `.filter(column, operator:, value:)`, which supabase-swift sends as
/// written; a part the client has no call for is a `//` line saying so, never left out.
public struct SupabaseSwiftChain: Sendable {
  public let lines: [String]

  public init(_ request: SupabaseDBRequest, names: GeneratedSwiftNames) {
    var lines: [String] = []
    let endpoint = request.endpoint
    let table =
      String(endpoint.path.dropFirst("/rest/v1/".count)).removingPercentEncoding
      ?? String(endpoint.path.dropFirst("/rest/v1/".count))
    var headers: [String: String] = [:]
    for field in endpoint.headers { headers[field.name.lowercased()] = field.value }
    let schema = headers["accept-profile"] ?? headers["content-profile"]
    let relation = names.relation(schema: schema ?? "public", table: table)
    let prefer = Set(
      (headers["prefer"] ?? "").split(separator: ",").map {
        $0.trimmingCharacters(in: .whitespaces)
      })
    let count = SupabaseCountOption.allCases.first { prefer.contains("count=" + $0.rawValue) }
    let countArgument = count.map { ", count: .\($0.rawValue)" } ?? ""
    let returning =
      prefer.contains("return=representation")
      ? "returning: .representation" : "returning: .minimal"

    func column(_ name: String) -> String {
      if let relation, let member = relation.columns[name] {
        return relation.type + ".Columns." + member + ".rawValue"
      }
      return SwiftLiteral.string(name)
    }

    var start = "try await supabase"
    if let schema {
      start +=
        ".schema(" + (relation.map { $0.type + ".schemaName" } ?? SwiftLiteral.string(schema)) + ")"
    }
    start +=
      ".from(" + (relation.map { $0.type + ".tableName" } ?? SwiftLiteral.string(table)) + ")"
    lines.append(start)
    var query = endpoint.query
    let select = query.first { $0.name == "select" }?.value
    query.removeAll { $0.name == "select" }
    let body = request.body.map { SwiftLiteral.json($0) + " as AnyJSON" } ?? "[:] as AnyJSON"
    switch request.action {
    case .fetch:
      let head = endpoint.method == .head ? ", head: true" : ""
      lines.append("  .select(" + SwiftLiteral.string(select ?? "*") + head + countArgument + ")")
    case .insert:
      lines.append("  .insert(" + body + ", " + returning + countArgument + ")")
    case .update:
      lines.append("  .update(" + body + ", " + returning + countArgument + ")")
    case .delete:
      lines.append("  .delete(" + returning + countArgument + ")")
    case .upsert, .put, .rpc:
      lines = [
        "// no supabase-swift chain is written for this statement yet: the swift section is its call"
      ]
      self.lines = lines
      return
    }
    if request.action != .fetch, let select {
      lines.append("  .select(" + SwiftLiteral.string(select) + ")")
    }
    var limit: String?
    var offset: String?
    var orders: [String] = []
    for item in query {
      switch item.name {
      case "limit": limit = item.value
      case "offset": offset = item.value
      case "order": orders.append(item.value)
      case "or" where item.value.hasPrefix("(") && item.value.hasSuffix(")"):
        lines.append(
          "  .or(" + SwiftLiteral.string(String(item.value.dropFirst().dropLast())) + ")")
      case "columns", "on_conflict", "and", "or":
        lines.append(
          "// not expressible in supabase-swift's builder: " + item.name + "=" + item.value)
      default:
        let parts = item.value.split(separator: ".", maxSplits: 1)
        if parts.count == 2, parts[0] == "eq" {
          lines.append(
            "  .eq(" + column(item.name) + ", value: " + SwiftLiteral.string(String(parts[1])) + ")"
          )
        } else if let dot = Self.operatorEnd(item.value) {
          let op = String(item.value[..<dot])
          let value = String(item.value[item.value.index(after: dot)...])
          lines.append(
            "  .filter(" + column(item.name) + ", operator: " + SwiftLiteral.string(op)
              + ", value: " + SwiftLiteral.string(value) + ")")
        } else {
          lines.append(
            "// not expressible in supabase-swift's builder: " + item.name + "=" + item.value)
        }
      }
    }
    for order in orders {
      for term in order.split(separator: ",") {
        let words = term.split(separator: ".").map(String.init)
        guard let name = words.first else { continue }
        var call = "  .order(" + column(name)
        if words.contains("desc") { call += ", ascending: false" }
        if words.contains("nullsfirst") { call += ", nullsFirst: true" }
        lines.append(call + ")")
      }
    }
    if let limit, let rows = Int(limit) {
      if let offset, let from = Int(offset) {
        lines.append("  .range(from: \(from), to: \(from + rows - 1))")
      } else {
        lines.append("  .limit(\(rows))")
      }
    } else if let offset {
      lines.append(
        "// not expressible in supabase-swift's builder: offset=" + offset + " without a limit")
    }
    switch request.expectation {
    case .single: lines.append("  .single()")
    case .maybeSingle:
      lines.append("// maybe single: supabase-swift has no maybeSingle(); decode the rows' first")
    case .rows: break
    }
    lines.append("  .execute()")
    if relation == nil {
      lines.append(
        "// " + SwiftLiteral.string(table) + " is not in the generated file: generate it again")
    }
    self.lines = lines
  }

  /// Where the operator of `op.value` (or `not.op.value`, `op(modifier).value`) ends.
  static func operatorEnd(_ value: String) -> String.Index? {
    guard let first = value.firstIndex(of: ".") else { return nil }
    if value[..<first] == "not" {
      let rest = value.index(after: first)
      return value[rest...].firstIndex(of: ".")
    }
    return first
  }
}
