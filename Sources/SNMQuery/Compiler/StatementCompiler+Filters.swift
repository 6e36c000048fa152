import Foundation
import SNMNetwork
import SNMSupabase
import SNMWire

/// `where` trees and select lists as builder parameters.
extension StatementCompiler {
  /// Top-level `and` operands become separate parameters; anything else one parameter.
  func topLevelParameters(_ condition: Condition) throws(Diagnostic) -> [SupabaseQueryParameter] {
    var parameters: [SupabaseQueryParameter] = []
    try appendTopLevel(condition, to: &parameters)
    return parameters
  }

  func appendTopLevel(_ condition: Condition, to parameters: inout [SupabaseQueryParameter])
    throws(Diagnostic)
  {
    if case .and(let operands, _) = condition.shape {
      for operand in operands { try appendTopLevel(operand, to: &parameters) }
    } else {
      parameters.append(try parameter(condition))
    }
  }

  /// `or(...)`, `and(...)`, `not(...)` and filters, nested as written.
  func parameter(_ condition: Condition) throws(Diagnostic) -> SupabaseQueryParameter {
    switch condition.shape {
    case .predicate(let predicate): return try filter(predicate)
    case .and(let operands, _): return .and(try operands.mapThrowing(parameter))
    case .or(let operands, _): return .or(try operands.mapThrowing(parameter))
    case .not(let operand, _): return .not(try parameter(operand))
    }
  }

  func filter(_ predicate: FilterPredicate) throws(Diagnostic) -> SupabaseQueryParameter {
    let column = column(predicate.column)
    let value = predicate.value
    let parameter: SupabaseQueryParameter
    if let quantifier = predicate.quantifier {
      parameter = .quantified(
        column, predicate.op, quantifier == .any ? .any : .all,
        try elements(value, context: "'\(predicate.op.rawValue) \(quantifier.rawValue)'"))
    } else {
      switch predicate.op {
      case .eq: parameter = .equal(column, try queryValue(value))
      case .neq: parameter = .notEqual(column, try queryValue(value))
      case .gt: parameter = .greaterThan(column, try queryValue(value))
      case .gte: parameter = .greaterThanOrEqual(column, try queryValue(value))
      case .lt: parameter = .lessThan(column, try queryValue(value))
      case .lte: parameter = .lessThanOrEqual(column, try queryValue(value))
      case .like: parameter = .like(column, try text(value))
      case .ilike: parameter = .ilike(column, try text(value))
      case .match: parameter = .match(column, try text(value))
      case .imatch: parameter = .imatch(column, try text(value))
      case .in: parameter = .in(column, try elements(value, context: "'in'"))
      case .is: parameter = .is(column, isValue(value))
      case .isdistinct: parameter = .isDistinct(column, try queryValue(value))
      case .cs: parameter = .contains(column, try queryValue(value))
      case .cd: parameter = .containedBy(column, try queryValue(value))
      case .ov: parameter = .overlaps(column, try queryValue(value))
      case .sl: parameter = .strictlyLeft(column, try text(value))
      case .sr: parameter = .strictlyRight(column, try text(value))
      case .nxl: parameter = .notExtendingLeft(column, try text(value))
      case .nxr: parameter = .notExtendingRight(column, try text(value))
      case .adj: parameter = .adjacent(column, try text(value))
      case .fts, .plfts, .phfts, .wfts:
        parameter = .textSearch(
          column, try text(value), config: predicate.config?.text, type: searchType(predicate.op))
      }
    }
    return predicate.negated ? .not(parameter) : parameter
  }

  func searchType(_ op: FilterOperator) -> SupabaseTextSearchType {
    switch op {
    case .plfts: .plain
    case .phfts: .phrase
    case .wfts: .websearch
    default: .tsquery
    }
  }

  func isValue(_ node: ValueNode) -> SupabaseIsValue {
    switch node.value {
    case .bool(true): .true
    case .bool(false): .false
    case .word: .unknown
    default: .null
    }
  }

  /// A column path as the builder names it.
  func column(_ path: ColumnPath) -> SupabaseColumn {
    SupabaseColumn(
      path.column.text, embedPath: path.embedPath.map(\.text),
      jsonPath: path.json.map { SupabaseColumn.JSONPathStep($0.key, asText: $0.asText) })
  }

  /// A filter operand: integers stay `Int`, other numbers keep their text, UUIDs are `UUID`s (sent
  /// lowercase), dates and timestamps go as written.
  func queryValue(_ node: ValueNode) throws(Diagnostic) -> SupabaseQueryValue {
    switch node.value {
    case .string(let literal): return .string(try ValueEvaluator.text(literal, in: scope))
    case .number(let text): return Self.number(text)
    case .bool(let flag): return .bool(flag)
    case .null: return .null
    case .uuid(let text):
      return UUID(uuidString: text).map(SupabaseQueryValue.uuid) ?? .string(text.lowercased())
    case .date(let text), .timestamp(let text), .word(let text): return .string(text)
    case .variable(let reference): return Self.queryValue(try scope.resolve(reference))
    case .array(let elements), .list(let elements):
      return .array(try elements.mapThrowing(queryValue))
    case .object: return .json(try ValueEvaluator.json(node, in: scope))
    }
  }

  static func number(_ text: String) -> SupabaseQueryValue {
    if let integer = Int(text) { return .int(integer) }
    return JSONNumber(text).map { .json(.number($0)) } ?? .string(text)
  }

  /// A variable's value as an operand.
  static func queryValue(_ json: JSONValue) -> SupabaseQueryValue {
    switch json {
    case .string(let text): .string(text)
    case .number(let number): number.intValue.map(SupabaseQueryValue.int) ?? .json(json)
    case .bool(let flag): .bool(flag)
    case .null: .null
    case .array(let elements): .array(elements.map(queryValue))
    case .object: .json(json)
    }
  }

  /// The text of a pattern, range or search operand.
  func text(_ node: ValueNode) throws(Diagnostic) -> String {
    try queryValue(node).rendered
  }

  /// The elements of an `in` list or a quantified array (a literal, or a variable holding an array).
  func elements(_ node: ValueNode, context: String) throws(Diagnostic) -> [SupabaseQueryValue] {
    if case .variable(let reference) = node.value, scope.isPlaceholder(reference) {
      return [.string(reference.spelling)]
    }
    let value = try queryValue(node)
    if case .array(let elements) = value { return elements }
    throw Diagnostic(
      .variableKind(
        Self.spelling(of: node), holds: "a single value", context: context,
        expected: "a list of values"),
      at: node.range)
  }
}

extension Sequence {
  /// `map` with a typed-throwing transform.
  func mapThrowing<T, E: Error>(_ transform: (Element) throws(E) -> T) throws(E) -> [T] {
    var result: [T] = []
    result.reserveCapacity(underestimatedCount)
    for element in self { result.append(try transform(element)) }
    return result
  }
}
