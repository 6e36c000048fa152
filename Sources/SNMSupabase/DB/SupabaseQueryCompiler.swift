import SNMNetwork
import SNMWire

/// Turns a chain's parameters into query pairs and headers, following postgrest-protocol.md §2-§5.
struct SupabaseQueryCompiler {
  let action: SupabaseDBAction
  private(set) var query: [Endpoint.QueryItem] = []
  private(set) var expectation: SupabaseDBRequest.Expectation = .rows
  private(set) var csv = false
  private(set) var schema: String?
  private var returning = false
  private var count: SupabaseCountOption?
  private var ignoreDuplicates = false
  private var explicitColumns = false
  private(set) var head = false
  private var maxAffected: Int?
  private var rollback = false
  private(set) var csvBody = false
  /// `EXPLAIN` options when the plan is asked for, else nil.
  private(set) var plan: [String]?
  private var timezone: String?

  init(action: SupabaseDBAction) {
    self.action = action
  }

  /// Checks the target and the body's shape for the action.
  func validate(table: String?, body: JSONValue?, csvBody: Bool = false) throws(SupabaseDBError) {
    if case .rpc(let function, _) = action {
      guard !function.isEmpty else { throw .missingTable(action) }
    } else {
      guard let table, table.contains(where: { !$0.isWhitespace }) else {
        throw .missingTable(action)
      }
    }
    switch action {
    case .fetch, .delete:
      if body != nil { throw .unexpectedBody(action) }
    case .put:
      guard let body else { throw .missingBody(action) }
      guard case .object = body else {
        throw .invalidBody(action, reason: "must be a JSON object, not \(Self.article(body))")
      }
    case .update:
      guard let body else { throw .missingBody(action) }
      guard case .object = body else {
        throw .invalidBody(action, reason: "must be a JSON object, not \(Self.article(body))")
      }
    case .insert, .upsert:
      guard let body else { throw .missingBody(action) }
      if csvBody {
        guard case .string = body else {
          throw .invalidBody(action, reason: "a CSV body must be text, not \(Self.article(body))")
        }
        return
      }
      switch body {
      case .object: break
      case .array(let rows):
        if let bad = rows.first(where: { $0.objectValue == nil }) {
          throw .invalidBody(
            action,
            reason:
              "must be an object or an array of objects, not an array holding \(Self.article(bad))")
        }
      default:
        throw .invalidBody(
          action, reason: "must be a JSON object or an array of objects, not \(Self.article(body))")
      }
    case .rpc(_, let get):
      if get, let body, body.objectValue == nil {
        throw .invalidBody(
          action,
          reason: "must be a JSON object of arguments for a GET call, not \(Self.article(body))")
      }
    }
  }

  static func article(_ value: JSONValue) -> String {
    value.typeName == "array" || value.typeName == "object"
      ? "an \(value.typeName)" : "a \(value.typeName)"
  }

  mutating func add(_ parameters: [SupabaseQueryParameter]) throws(SupabaseDBError) {
    for parameter in parameters {
      try add(parameter)
    }
  }

  private mutating func add(_ parameter: SupabaseQueryParameter) throws(SupabaseDBError) {
    switch parameter.kind {
    case .filter(let column, let filter):
      query.append(.init(column.wireKey, Self.render(filter, inTree: false)))
    case .group(let isOr, let negated, let operands, let referencedTable):
      let (embed, text) = try Self.renderGroup(
        isOr: isOr, operands: operands, referencedTable: referencedTable)
      let key = (embed.map { $0 + "." } ?? "") + (negated ? "not." : "") + (isOr ? "or" : "and")
      query.append(.init(key, text))
    case .select(let list, let isReturning):
      if isReturning && !action.isWrite {
        throw .invalidParameter("returning applies to insert, update, upsert, put and delete")
      }
      if action.isWrite { returning = true }
      set("select", list.wire)
    case .order(let items):
      for item in items {
        let key = (item.column.embedPath.map(PostgresLiteral.name) + ["order"]).joined(
          separator: ".")
        if let index = query.firstIndex(where: { $0.name == key }) {
          query[index].value += "," + item.wire
        } else {
          query.append(.init(key, item.wire))
        }
      }
    case .limit(let value, let table):
      set(table.map { PostgresLiteral.name($0) + ".limit" } ?? "limit", String(value))
    case .offset(let value, let table):
      set(table.map { PostgresLiteral.name($0) + ".offset" } ?? "offset", String(value))
    case .single:
      try expect(.single)
    case .maybeSingle:
      try expect(.maybeSingle)
    case .count(let option):
      count = option
    case .onConflict(let columns):
      guard action == .upsert else {
        throw .invalidParameter("on conflict applies to upsert")
      }
      set("on_conflict", columns.map(PostgresLiteral.name).joined(separator: ","))
    case .ignoreDuplicates, .mergeDuplicates:
      guard action == .upsert else {
        throw .invalidParameter("ignore and merge duplicates apply to upsert")
      }
      ignoreDuplicates = parameter.kind == .ignoreDuplicates
    case .columns(let names):
      guard action == .upsert || action == .insert else {
        throw .invalidParameter("columns applies to insert and upsert")
      }
      explicitColumns = true
      set("columns", Self.columnList(names))
    case .schema(let name):
      schema = name
    case .csv:
      csv = true
    case .custom(let name, let value):
      query.append(.init(name, value))
    case .head:
      var reads = action == .fetch
      if case .rpc(_, true) = action { reads = true }
      guard reads else {
        throw .invalidParameter("head applies to select and rpc get")
      }
      head = true
    case .maxAffected(let count):
      guard action == .update || action == .delete || rpcName != nil else {
        throw .invalidParameter("max affected applies to update, delete and rpc")
      }
      maxAffected = count
    case .rollback:
      rollback = true
    case .csvBody:
      guard action == .insert || action == .upsert else {
        throw .invalidParameter("a CSV body applies to insert and upsert")
      }
      csvBody = true
    case .plan(let options):
      plan = options
    case .timezone(let zone):
      timezone = zone
    }
  }

  /// The function's name for an rpc, else nil.
  private var rpcName: String? {
    if case .rpc(let function, _) = action { return function }
    return nil
  }

  private mutating func expect(_ wanted: SupabaseDBRequest.Expectation) throws(SupabaseDBError) {
    guard expectation == .rows || expectation == wanted else {
      throw .invalidParameter("single and maybe single cannot both be given")
    }
    expectation = wanted
  }

  /// Replaces the pair named `name` in place, or appends it.
  private mutating func set(_ name: String, _ value: String) {
    if let index = query.firstIndex(where: { $0.name == name }) {
      query[index].value = value
    } else {
      query.append(.init(name, value))
    }
  }

  /// Adds the pairs the body implies and returns the body to send.
  mutating func finish(body: JSONValue?) throws(SupabaseDBError) -> JSONValue? {
    if csv && expectation != .rows {
      throw .invalidParameter("csv cannot be combined with single or maybe single")
    }
    switch action {
    case .rpc(_, true):
      let arguments = (body?.objectValue ?? JSONObject()).map { key, value in
        Endpoint.QueryItem(key, value.queryValue.rendered)
      }
      query.insert(contentsOf: arguments, at: 0)
      return nil
    case .rpc(_, false):
      return body ?? .object(JSONObject())
    case .insert, .upsert:
      if !explicitColumns, !csvBody, case .array(let rows)? = body {
        var names: [String] = []
        var seen: Set<String> = []
        for row in rows {
          for key in row.objectValue?.keys ?? [] where seen.insert(key).inserted {
            names.append(key)
          }
        }
        query.append(.init("columns", Self.columnList(names)))
      }
      return body
    default:
      return body
    }
  }

  /// `"a","b"`: every name double-quoted, as both official clients send it.
  static func columnList(_ names: [String]) -> String {
    names.map(PostgresLiteral.quoted).joined(separator: ",")
  }

  /// What a 2xx answer must carry: PostgREST answers a read, a write with
  /// `return=representation` and a plan with a body (`[]` when no row matched), a function with
  /// one unless it returns `void` (204); a CSV read of no rows, a HEAD and a write with
  /// `return=minimal` may answer with none.
  var answerBody: Endpoint.AnswerBody {
    if head || csv { return .optional }
    if plan != nil { return .required }
    switch action {
    case .fetch: return .required
    case .rpc: return .requiredUnlessNoContent
    case .insert, .update, .upsert, .delete, .put: return returning ? .required : .optional
    }
  }

  /// The JSON a 2xx answer's body must be: rows in an array for a read and a write with
  /// `returning` (PostgREST's `[]` for none; `maybe single` asks for the array and picks), the
  /// row as an object with `single` (`Accept: application/vnd.pgrst.object+json`). Nil for a
  /// function (a scalar, `null`, an object or an array, as it returns: the OpenAPI document does
  /// not say which), a plan, CSV and a HEAD.
  var answerShape: Endpoint.AnswerShape? {
    if head || csv || plan != nil { return nil }
    switch action {
    case .rpc: return nil
    case .insert, .update, .upsert, .delete, .put: if !returning { return nil }
    case .fetch: break
    }
    return expectation == .single ? .object("the row") : .array(of: "rows")
  }

  /// What sending the request may do, by its statement, not its method: a read, a HEAD or `rpc
  /// get` (PostgREST runs it read-only) reads, a plan without `analyze` only explains, a POST
  /// `rpc` calls a function that may write.
  var effect: Endpoint.Effect {
    if head { return .reads }
    if let plan, !plan.contains("analyze") { return .reads }  // explained, not run
    switch action {
    case .fetch, .rpc(_, get: true): return .reads
    case .rpc(_, get: false): return .callsFunction
    case .insert, .update, .upsert, .delete, .put: return .writes
    }
  }

  /// The headers the request carries: Content-Type with a body, Prefer, Accept when not the
  /// default, and the profile header for a schema other than public.
  func headers(body: JSONValue?, schema: String?) -> HTTPHeaders {
    var headers = HTTPHeaders()
    if body != nil { headers["Content-Type"] = "application/json" }
    var prefer: [String] = []
    if action.isWrite { prefer.append(returning ? "return=representation" : "return=minimal") }
    if let count { prefer.append("count=" + count.rawValue) }
    if action == .upsert {
      prefer.append(
        ignoreDuplicates ? "resolution=ignore-duplicates" : "resolution=merge-duplicates")
    }
    if let maxAffected { prefer += ["handling=strict", "max-affected=\(maxAffected)"] }
    if rollback { prefer.append("tx=rollback") }
    if let timezone { prefer.append("timezone=" + timezone) }
    if !prefer.isEmpty { headers["Prefer"] = prefer.joined(separator: ",") }
    if csvBody && body != nil { headers["Content-Type"] = "text/csv" }
    if expectation == .single { headers["Accept"] = "application/vnd.pgrst.object+json" }
    if csv { headers["Accept"] = "text/csv" }
    if let plan {
      let planned =
        csv
        ? "text/csv"
        : expectation == .single ? "application/vnd.pgrst.object+json" : "application/json"
      headers["Accept"] =
        "application/vnd.pgrst.plan+text; for=\"\(planned)\""
        + (plan.isEmpty ? "" : "; options=" + plan.joined(separator: "|"))
    }
    if let schema, !schema.isEmpty, schema != "public" {
      headers[action.method.isRead ? "Accept-Profile" : "Content-Profile"] = schema
    }
    return headers
  }
}
