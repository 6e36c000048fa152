import Foundation
import SNMQuery
import SNMWire

/// Whether an event is the one `expect event [<sub>] [<kind>] [where ...]` waits for: its kind
/// (any case) and each `and` of its `where` over the event's fields (the record, the old record
/// of a delete, or a broadcast's payload), values filled in once.
struct RealtimeEventMatcher: Sendable {
  struct Test: Sendable {
    var path: [String]
    var op: FilterOperator
    var negated: Bool
    var value: JSONValue
  }

  let kind: String?
  let tests: [Test]

  init(_ expectation: RealtimeExpectation, scope: VariableScope) throws(Diagnostic) {
    kind = expectation.kind?.text.lowercased()
    var tests: [Test] = []
    if let filter = expectation.filter {
      for predicate in Self.predicates(filter) {
        let column = predicate.column
        let path =
          column.embedPath.map(\.text) + [column.column.text] + column.json.map(\.key)
        let value: JSONValue
        if predicate.op == .is {
          switch predicate.value.value {
          case .bool(let flag): value = .bool(flag)
          default: value = .null
          }
        } else {
          value = try ValueEvaluator.json(predicate.value, in: scope)
        }
        tests.append(Test(path: path, op: predicate.op, negated: predicate.negated, value: value))
      }
    }
    self.tests = tests
  }

  func matches(_ event: RealtimeEvent) -> Bool {
    if let kind, event.kind.lowercased() != kind { return false }
    let fields = event.fields
    return tests.allSatisfy { test in
      var current: JSONValue? = fields
      for step in test.path { current = current?[step] }
      return Self.holds(test, current ?? .null) != test.negated
    }
  }

  static func holds(_ test: Test, _ actual: JSONValue) -> Bool {
    switch test.op {
    case .eq: return ValueComparison.equal(actual, test.value)
    case .neq: return !ValueComparison.equal(actual, test.value)
    case .lt: return ValueComparison.order(actual, test.value) == .orderedAscending
    case .lte:
      return ValueComparison.order(actual, test.value) != .orderedDescending
        && ValueComparison.order(actual, test.value) != nil
    case .gt: return ValueComparison.order(actual, test.value) == .orderedDescending
    case .gte:
      return ValueComparison.order(actual, test.value) != .orderedAscending
        && ValueComparison.order(actual, test.value) != nil
    case .in: return test.value.arrayValue?.contains { ValueComparison.equal(actual, $0) } ?? false
    case .is: return ValueComparison.equal(actual, test.value)
    case .like, .ilike:
      guard let text = actual.stringValue, let pattern = test.value.stringValue else {
        return false
      }
      return like(text, pattern, caseInsensitive: test.op == .ilike)
    default: return false
    }
  }

  /// SQL `like` (`%` any run, `_` one character; PostgREST's `*` as `%`).
  static func like(_ text: String, _ pattern: String, caseInsensitive: Bool) -> Bool {
    var regex = "^"
    for character in pattern {
      switch character {
      case "%", "*": regex += ".*"
      case "_": regex += "."
      default: regex += NSRegularExpression.escapedPattern(for: String(character))
      }
    }
    regex += "$"
    return text.range(
      of: regex,
      options: caseInsensitive ? [.regularExpression, .caseInsensitive] : .regularExpression)
      != nil
  }

  static func predicates(_ condition: Condition) -> [FilterPredicate] {
    switch condition.shape {
    case .predicate(let predicate): [predicate]
    case .and(let operands, _): operands.flatMap(predicates)
    case .or, .not: []
    }
  }
}
