extension Checker {
  /// The operators Realtime's postgres_changes filter takes (`col=op.value`).
  static let realtimeFilterOperators: [FilterOperator] = [
    .eq, .neq, .lt, .lte, .gt, .gte, .in, .like, .ilike, .is, .match, .imatch, .isdistinct,
  ]
  /// The operators `expect event ... where` compares an event's fields with.
  static let eventFilterOperators: [FilterOperator] = [
    .eq, .neq, .lt, .lte, .gt, .gte, .in, .is, .like, .ilike,
  ]

  /// A Realtime statement: its variables, filters Realtime (or `expect event`) can evaluate,
  /// and object payloads.
  mutating func check(_ realtime: RealtimeStatement) {
    switch realtime {
    case .listen(let listen):
      if let filter = listen.filter {
        checkRealtimeFilter(
          filter, clause: "a Realtime filter", operators: Self.realtimeFilterOperators,
          allowsPaths: false)
      }
    case .expectEvent(let expectation):
      if let filter = expectation.filter {
        checkRealtimeFilter(
          filter, clause: "'expect event ... where'", operators: Self.eventFilterOperators,
          allowsPaths: true)
      }
    case .broadcast(_, _, let payload):
      checkPayload(payload, statement: "broadcast")
    case .track(_, let payload):
      checkPayload(payload, statement: "track")
    case .unlisten, .untrack, .check:
      break
    }
  }

  mutating func checkPayload(_ payload: ValueNode, statement: String) {
    switch payload.value {
    case .object, .variable: checkVariables(in: payload)
    default:
      report(
        .realtimePayload(statement, found: payload.value.kindDescription), at: payload.range,
        help: "for example {\"x\": 1}")
    }
  }

  /// Predicates joined by `and`, each with an operator from `operators`.
  mutating func checkRealtimeFilter(
    _ condition: Condition, clause: String, operators: [FilterOperator], allowsPaths: Bool
  ) {
    switch condition.shape {
    case .and(let operands, _):
      for operand in operands {
        checkRealtimeFilter(operand, clause: clause, operators: operators, allowsPaths: allowsPaths)
      }
    case .or(_, let range):
      report(
        .realtimeOr(clause), at: range,
        help: "listen once for each alternative, or filter the events with 'expect event'")
    case .not(_, let range):
      report(
        .realtimeGroup(clause), at: range, help: "write 'not' before the operator: 'a not eq 1'")
    case .predicate(var predicate):
      let spelled = source(predicate)
      guard operators.contains(predicate.op), predicate.quantifier == nil, predicate.config == nil
      else {
        report(
          .realtimeOperator(spelled, clause), at: predicate.operatorRange,
          help: "use " + operators.map(\.rawValue).joined(separator: ", "))
        return
      }
      if !allowsPaths, !predicate.column.embedPath.isEmpty || !predicate.column.json.isEmpty {
        report(.realtimeColumnPath(clause), at: predicate.column.range)
        return
      }
      check(&predicate)
    }
  }

  private func source(_ predicate: FilterPredicate) -> String {
    var text = predicate.op.rawValue
    if let quantifier = predicate.quantifier { text += " " + quantifier.rawValue }
    return text
  }
}
