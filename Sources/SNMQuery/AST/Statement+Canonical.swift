/// The canonical text of a statement: one spelling for every way of writing it, which parses back to
/// the same statement. Tests compare it; the fuzz test checks the round trip.
///
/// ```swift
/// Parser.parse("FROM t SELECT * WHERE a >= 3").statements[0].canonicalText
/// // from t select * where a gte 3
/// ```
extension Statement: CustomStringConvertible {
  public var description: String { canonicalText }

  public var canonicalText: String {
    switch kind {
    case .query(let query): query.canonicalText
    case .rpc(let rpc): rpc.canonicalText
    case .storage(let storage): storage.canonicalText
    case .functions(let functions): functions.canonicalText
    case .session(let session): session.canonicalText
    case .let(let binding):
      switch binding.value {
      case .statement(let statement): "let \(binding.name.text) = \(statement.canonicalText)"
      case .value(let value): "let \(binding.name.text) = \(value.value.canonicalText)"
      }
    case .expect(let expect): expect.canonicalText
    case .echo(let echo): "echo \(echo.value.value.canonicalText)"
    case .run(let run): "run \(Value.quoted(run.path))"
    case .deferred(let deferred): "defer " + deferred.statement.canonicalText
    case .shell(let shell): shell.canonicalText
    case .auth(let auth): auth.canonicalText
    case .asService(let inner): "as service " + inner.canonicalText
    case .realtime(let realtime): realtime.canonicalText
    }
  }
}

extension QueryStatement {
  var canonicalText: String {
    var text = "from \(table.canonicalText) "
    switch action {
    case .select(let items, _): text += "select " + items.canonicalText
    case .insert(let body, _):
      text += "insert " + (bodyFile?.canonicalText ?? body.value.canonicalText)
    case .upsert(let upsert):
      text += "upsert " + upsert.body.value.canonicalText
      if !upsert.onConflict.isEmpty {
        text += " on conflict " + upsert.onConflict.map(\.canonicalText).joined(separator: ", ")
      }
      if upsert.ignoreDuplicates { text += " ignore duplicates" }
    case .update(let body, _): text += "update " + body.value.canonicalText
    case .delete: text += "delete"
    case .put(let body, _): text += "put " + body.value.canonicalText
    }
    switch filter {
    case .all: text += " where all"
    case .condition(let condition): text += " where " + condition.canonicalText(nested: false)
    case nil: break
    }
    return text + modifiers.canonicalText
  }
}

extension RPCStatement {
  var canonicalText: String {
    var text = "rpc " + (get ? "get " : "") + function.canonicalText
    if let arguments { text += " " + arguments.value.canonicalText }
    if let filter { text += " where " + filter.canonicalText(nested: false) }
    return text + modifiers.canonicalText
  }
}

extension Modifiers {
  var canonicalText: String {
    var text = ""
    if !order.isEmpty {
      text += " order by " + order.map(\.canonicalText).joined(separator: ", ")
    }
    if let limit { text += " limit " + limit.value.canonicalText }
    if let offset { text += " offset " + offset.value.canonicalText }
    if let single { text += " " + single.rawValue }
    if let count = rare?.count { text += " count " + count.rawValue }
    if let returning = rare?.returning { text += " returning " + returning.canonicalText }
    return text + guardsCanonicalText
  }
}

extension OrderItem {
  var canonicalText: String {
    var text = column.canonicalText
    if let direction { text += " " + direction.rawValue }
    if let nulls { text += nulls == .first ? " nulls first" : " nulls last" }
    return text
  }
}

extension Condition {
  func canonicalText(nested: Bool) -> String {
    switch shape {
    case .predicate(let predicate):
      return predicate.canonicalText
    case .and(let operands, _):
      let text = operands.map { $0.canonicalText(nested: true) }.joined(separator: " and ")
      return nested ? "(\(text))" : text
    case .or(let operands, _):
      let text = operands.map { $0.canonicalText(nested: true) }.joined(separator: " or ")
      return nested ? "(\(text))" : text
    case .not(let operand, _):
      if operand.isPredicate { return "not (\(operand.canonicalText(nested: false)))" }
      return "not " + operand.canonicalText(nested: true)
    }
  }
}

extension FilterPredicate {
  var canonicalText: String {
    var text = column.canonicalText + " "
    if op == .is {
      return text + (negated ? "is not " : "is ") + value.value.canonicalText
    }
    if negated { text += "not " }
    text += op.rawValue
    if let config { text += "(\(config.canonicalText))" }
    if let quantifier { text += " " + quantifier.rawValue }
    return text + " " + value.value.canonicalText
  }
}
