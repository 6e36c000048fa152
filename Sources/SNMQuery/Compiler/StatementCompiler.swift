import SNMNetwork
import SNMSupabase
import SNMWire

/// Compiles queries and `rpc` calls into `SupabaseDBManager` builder chains, the only way snm makes
/// requests.
///
/// ```swift
/// let compiler = StatementCompiler(manager: remoteDBManager, scope: scope)
/// let compiled = try compiler.compile(statement)       // throws Diagnostic
/// let response = try await compiled.builder.request()  // or compiled.request for explain
/// ```
/// Variables are filled in from `scope` first: an unbound one, an unset `$env.NAME` or a missing
/// field is a `Diagnostic` at its line and column, and nothing is sent. What the builder refuses
/// (an `or` group that mixes embedded tables, a variable body of the wrong shape) is a `Diagnostic`
/// at the statement.
public struct StatementCompiler: Sendable {
  public var manager: SupabaseDBManager
  public var scope: VariableScope
  /// Reads the body of `insert file|csv '...'` (the shell's, relative to the script's folder);
  /// nil: a placeholder (`snm check`, `explain`).
  /// It is given the path with its variables filled in.
  public var readBody: (@Sendable (BodyFile, String) throws(Diagnostic) -> JSONValue)?
  /// `set timezone 'Zone'`: every query and `rpc` sends `Prefer: timezone=Zone`.
  public var timezone: String?
  /// The page a select asks for (`all`, and the look past the row cap); nil: the statement's own
  /// `limit` and `offset`, or the first page of `all`.
  public var window: PageWindow?

  public init(
    manager: SupabaseDBManager, scope: VariableScope = VariableScope(),
    readBody: (@Sendable (BodyFile, String) throws(Diagnostic) -> JSONValue)? = nil
  ) {
    self.manager = manager
    self.scope = scope
    self.readBody = readBody
  }

  /// A compiled statement: the builder chain, and the request it builds (for `explain`).
  public struct Compiled: Sendable {
    public var builder: SupabaseDBRequestBuilder<SupabaseDBPhase.Ready>
    public var request: SupabaseDBRequest
  }

  /// Compiles a query, an `rpc`, `explain <statement>` or `let name = <query or rpc>`, and builds
  /// its request.
  ///
  /// - Throws: `Diagnostic` for a statement that sends no request, a variable that cannot be
  ///   filled in, or a chain the builder refuses.
  public func compile(_ statement: Statement) throws(Diagnostic) -> Compiled {
    let target = try requestStatement(statement)
    let builder = try chain(target)
    do {
      return Compiled(builder: builder, request: try builder.build())
    } catch {
      var range = target.range
      if case .invalidParameter = error, let filter = Self.filterRange(target) { range = filter }
      throw Diagnostic(.builderRefused(error.description), at: range)
    }
  }

  /// The builder chain of a query or `rpc`, without building the request (what `snm check` needs).
  ///
  /// - Throws: `Diagnostic` for a statement that sends no request or a variable that cannot be
  ///   filled in.
  public func chain(_ statement: Statement) throws(Diagnostic) -> SupabaseDBRequestBuilder<
    SupabaseDBPhase.Ready
  > {
    switch statement.kind {
    case .query(let query): return try compile(query)
    case .rpc(let rpc): return try compile(rpc)
    default: return try chain(try requestStatement(statement))
    }
  }

  /// The query or `rpc` a statement sends: itself, or the one inside `explain` or `let`.
  func requestStatement(_ statement: Statement) throws(Diagnostic) -> Statement {
    switch statement.kind {
    case .query, .rpc:
      return statement
    case .shell(.explain(let inner, _)):
      return try requestStatement(inner)
    case .let(let binding):
      guard case .statement(let inner) = binding.value else {
        throw Diagnostic(
          .notARequestStatement("'let \(binding.name.text) = <value>'"), at: statement.range)
      }
      return try requestStatement(inner)
    default:
      throw Diagnostic(.notARequestStatement("this statement"), at: statement.range)
    }
  }

  static func filterRange(_ statement: Statement) -> SourceRange? {
    switch statement.kind {
    case .query(let query): query.filter?.range
    case .rpc(let rpc): rpc.filter?.range
    default: nil
    }
  }

  func compile(_ query: QueryStatement) throws(Diagnostic) -> SupabaseDBRequestBuilder<
    SupabaseDBPhase.Ready
  > {
    var parameters: [SupabaseQueryParameter] = []
    parameters.reserveCapacity(8)
    let action: SupabaseDBAction
    var body: ValueNode?
    switch query.action {
    case .select(let items, _):
      action = .fetch
      parameters.append(.select(items: try selectItems(items)))
    case .insert(let node, _):
      action = .insert
      body = node
    case .upsert(let upsert):
      action = .upsert
      body = upsert.body
    case .update(let node, _):
      action = .update
      body = node
    case .delete:
      action = .delete
    case .put(let node, _):
      action = .put
      body = node
    }
    var builder = manager.start(action).setTable(
      query.table.name.text, schema: query.table.schema?.text)
    if let file = query.bodyFile {
      builder = builder.setBody(try fileBody(file))
      if file.format == .csv { parameters.append(.csvBody) }
    } else if let body {
      builder = builder.setBody(try bodyValue(body))
    }
    if case .condition(let condition) = query.filter {
      try appendTopLevel(condition, to: &parameters)
    }
    if case .upsert(let upsert) = query.action {
      if !upsert.onConflict.isEmpty {
        parameters.append(.onConflict(upsert.onConflict.map(\.text)))
      }
      if upsert.ignoreDuplicates { parameters.append(.ignoreDuplicates) }
    }
    var window = self.window
    if window == nil, query.modifiers.rare?.all != nil {
      window = PageWindow(rows: PageWindow.defaultRows)
    }
    parameters += try modifierParameters(
      query.modifiers, isWrite: action.isWrite, window: action == .fetch ? window : nil)
    // An update or delete that returns no rows asks for their count, which PostgREST answers in
    // `Content-Range` (`*/0`), so the shell can say `UPDATE 0` and `expect rows` can read it.
    if action == .update || action == .delete, query.modifiers.rare?.returning == nil,
      query.modifiers.rare?.count == nil
    {
      parameters.append(.count(.exact))
    }
    return parameters.isEmpty ? builder : builder.setQuery(parameters)
  }

  func compile(_ rpc: RPCStatement) throws(Diagnostic) -> SupabaseDBRequestBuilder<
    SupabaseDBPhase.Ready
  > {
    var builder = manager.rpc(rpc.function.name.text, get: rpc.get)
    if let arguments = rpc.arguments {
      builder = builder.setBody(try bodyValue(arguments))
    }
    var parameters: [SupabaseQueryParameter] = []
    if let schema = rpc.function.schema { parameters.append(.schema(schema.text)) }
    if let filter = rpc.filter { try appendTopLevel(filter, to: &parameters) }
    parameters += try modifierParameters(rpc.modifiers, isWrite: false)
    return parameters.isEmpty ? builder : builder.setQuery(parameters)
  }

  /// `order by`, `limit`, `offset`, `single`, `count`, `returning` (as `select` for rpc).
  /// `window`: the page a select asks for, in place of its `limit` (`offset` added to its own).
  func modifierParameters(
    _ modifiers: Modifiers, isWrite: Bool, window: PageWindow? = nil
  ) throws(Diagnostic) -> [SupabaseQueryParameter] {
    var parameters: [SupabaseQueryParameter] = []
    var order = modifiers.order.map { item in
      SupabaseOrder(
        column(item.column), ascending: item.direction.map { $0 == .asc },
        nulls: item.nulls.map { $0 == .first ? .first : .last })
    }
    if let window {
      let named = Set(
        modifiers.order.filter { $0.column.embedPath.isEmpty && $0.column.json.isEmpty }.map(
          \.column.column.text))
      order += window.tiebreak.filter { !named.contains($0) }.map {
        SupabaseOrder(SupabaseColumn($0))
      }
    }
    if !order.isEmpty { parameters.append(.order(order)) }
    let offset = try modifiers.offset.map { node throws(Diagnostic) in
      try count(node, clause: "offset")
    }
    if let window {
      parameters.append(.limit(window.rows))
      let start = (offset ?? 0) + window.offset
      if start > 0 || offset != nil { parameters.append(.offset(start)) }
    } else {
      if let limit = modifiers.limit {
        parameters.append(.limit(try count(limit, clause: "limit")))
      }
      if let offset { parameters.append(.offset(offset)) }
    }
    switch modifiers.single {
    case .single: parameters.append(.single)
    case .maybeSingle: parameters.append(.maybeSingle)
    case nil: break
    }
    if let count = modifiers.rare?.count { parameters.append(.count(count)) }
    if let returning = modifiers.rare?.returning {
      let items = try selectItems(returning)
      parameters.append(isWrite ? .returning(items: items) : .select(items: items))
    }
    if modifiers.rare?.head != nil { parameters.append(.head) }
    if let maxAffected = modifiers.rare?.maxAffected {
      parameters.append(.maxAffected(try count(maxAffected, clause: "max affected")))
    }
    if modifiers.rare?.rollback != nil { parameters.append(.rollback) }
    if let plan = modifiers.rare?.plan { parameters.append(.plan(plan)) }
    if let timezone { parameters.append(.timezone(timezone)) }
    return parameters
  }

  /// The body of `insert file|csv`: read by `readBody`, else a placeholder.
  func fileBody(_ file: BodyFile) throws(Diagnostic) -> JSONValue {
    if let readBody { return try readBody(file, try ValueEvaluator.text(file.literal, in: scope)) }
    return file.format == .csv ? .string("<\(file.path)>") : .object(JSONObject())
  }

  /// A body as JSON; a placeholder variable stands for an empty object.
  func bodyValue(_ node: ValueNode) throws(Diagnostic) -> JSONValue {
    if case .variable(let reference) = node.value, scope.isPlaceholder(reference) {
      return .object(JSONObject())
    }
    return try ValueEvaluator.json(node, in: scope)
  }

  /// A whole number for `limit` and `offset`, from a literal or a variable.
  func count(_ node: ValueNode, clause: String) throws(Diagnostic) -> Int {
    if case .variable(let reference) = node.value, scope.isPlaceholder(reference) { return 0 }
    let value = try ValueEvaluator.json(node, in: scope)
    if case .number(let number) = value, let count = number.intValue, count >= 0 { return count }
    if case .string(let text) = value, let count = Int(text), count >= 0 { return count }
    throw Diagnostic(
      .variableKind(
        Self.spelling(of: node), holds: value.kindDescription, context: "'\(clause)'",
        expected: "a whole number of at least 0"),
      at: node.range)
  }
}

extension StatementCompiler {
  /// How a diagnostic names the value `node` holds: the variable as written (`$ids`), else
  /// "the value".
  static func spelling(of node: ValueNode) -> String {
    if case .variable(let reference) = node.value { return reference.spelling }
    return "the value"
  }
}
