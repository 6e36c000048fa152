import SNMSupabase
import SNMWire

/// Turns a Realtime statement into a ``RealtimeCall``: the join's config (filters in Realtime's
/// `col=op.value` form), the payloads as JSON with `$variables` filled in, and the supabase-swift
/// chain.
///
/// ```swift
/// let call = try RealtimeCompiler(scope: scope).compile(.listen(listen))
/// if case .join(let name, let config) = call.action { ... }
/// ```
/// Throws the ``Diagnostic`` of a variable that is not bound or holds the wrong kind.
public struct RealtimeCompiler: Sendable {
  public var scope: VariableScope

  public init(scope: VariableScope = VariableScope()) {
    self.scope = scope
  }

  /// The Realtime statement of `statement` (itself or under `explain`), if it is one that sends.
  public static func realtimeStatement(_ statement: Statement) -> RealtimeStatement? {
    switch statement.kind {
    case .realtime(let realtime):
      if case .expectEvent = realtime { return nil }
      return realtime
    case .shell(.explain(let inner, _)): return realtimeStatement(inner)
    default: return nil
    }
  }

  /// The call of a statement that sends; nil for `expect event` (it only reads what arrived).
  public func compile(_ statement: RealtimeStatement) throws(Diagnostic) -> RealtimeCall? {
    switch statement {
    case .listen(let listen): return try compile(listen)
    case .unlisten(let name):
      let swift =
        name.map { ["await supabase.removeChannel(channel)  // \(SwiftLiteral.string($0.text))"] }
        ?? ["await supabase.removeAllChannels()"]
      return RealtimeCall(action: .leave(name: name?.text), swift: swift)
    case .broadcast(let topic, let event, let payload):
      let json = try ValueEvaluator.json(payload, in: scope)
      return RealtimeCall(
        action: .broadcast(name: topic.text, event: event.text, payload: json),
        swift: [
          "let channel = supabase.channel(\(SwiftLiteral.string(topic.text)))",
          "try await channel.subscribeWithError()",
          "try await channel.broadcast(event: \(SwiftLiteral.string(event.text)), message: "
            + SwiftLiteral.json(json) + ")",
        ])
    case .track(let topic, let payload):
      let json = try ValueEvaluator.json(payload, in: scope)
      return RealtimeCall(
        action: .track(name: topic.text, payload: json),
        swift: [
          "let channel = supabase.channel(\(SwiftLiteral.string(topic.text)))",
          "try await channel.subscribeWithError()",
          "try await channel.track(" + SwiftLiteral.json(json) + ")",
        ])
    case .untrack(let topic):
      return RealtimeCall(
        action: .untrack(name: topic.text),
        swift: ["await channel.untrack()  // \(SwiftLiteral.string(topic.text))"])
    case .expectEvent:
      return nil
    case .check(let target):
      let listen: RealtimeListen
      switch target {
      case .table(let table):
        let qualified = TableName(
          schema: table.schema ?? Name("public", range: table.name.range), name: table.name)
        listen = RealtimeListen(target: .table(qualified, .all))
      case .channel(let topic, let isPrivate):
        listen = RealtimeListen(target: .channel(topic, isPrivate: isPrivate))
      }
      let joined = try compile(listen)
      guard case .join(let name, let config) = joined.action else { return joined }
      return RealtimeCall(
        action: .check(name: name, config: config),
        swift: joined.swift + ["await supabase.removeChannel(channel)"])
    }
  }

  func compile(_ listen: RealtimeListen) throws(Diagnostic) -> RealtimeCall {
    let name = listen.name
    switch listen.target {
    case .channel(let topic, let isPrivate):
      let config = RealtimeChannelConfig(presence: true, isPrivate: isPrivate)
      let options = isPrivate ? " { $0.isPrivate = true }" : ""
      return RealtimeCall(
        action: .join(name: name, config: config),
        swift: [
          "let channel = supabase.channel(\(SwiftLiteral.string(topic.text)))" + options,
          "let broadcasts = channel.broadcastStream(event: \"*\")",
          "let presence = channel.presenceChange()",
          "try await channel.subscribeWithError()",
        ])
    case .table(let table, let change):
      let filters = try listen.filter.map { condition throws(Diagnostic) in
        try Self.filters(condition, scope: scope)
      }
      let filter = filters.map { $0.joined(separator: ",") }
      let schema = table.schema?.text ?? "public"
      let binding = RealtimeChannelConfig.PostgresChange(
        event: change.rawValue, schema: schema, table: table.name.text, filter: filter)
      let action =
        switch change {
        case .all: "AnyAction"
        case .insert: "InsertAction"
        case .update: "UpdateAction"
        case .delete: "DeleteAction"
        }
      var call =
        "let changes = channel.postgresChange(\(action).self, schema: "
        + "\(SwiftLiteral.string(schema)), table: \(SwiftLiteral.string(table.name.text))"
      if let filter { call += ", filter: \(SwiftLiteral.string(filter))" }
      return RealtimeCall(
        action: .join(name: name, config: RealtimeChannelConfig(postgresChanges: [binding])),
        swift: [
          "let channel = supabase.channel(\(SwiftLiteral.string(name)))", call + ")",
          "try await channel.subscribeWithError()",
        ])
    }
  }

  /// Each `and` operand as one `col=op.value` filter.
  static func filters(_ condition: Condition, scope: VariableScope) throws(Diagnostic) -> [String] {
    let compiler = StatementCompiler(
      manager: SupabaseDBManager(config: SupabaseConfig(url: "", anonKey: "")), scope: scope)
    var parameters: [SupabaseQueryParameter] = []
    try compiler.appendTopLevel(condition, to: &parameters)
    var filters: [String] = []
    for (parameter, range) in zip(parameters, Self.operandRanges(condition)) {
      guard let filter = parameter.realtimeFilter else {
        throw Diagnostic(.realtimeOr("a Realtime filter"), at: range)
      }
      filters.append(filter)
    }
    return filters
  }

  static func operandRanges(_ condition: Condition) -> [SourceRange] {
    if case .and(let operands, _) = condition.shape { return operands.flatMap(operandRanges) }
    return [condition.range]
  }
}
