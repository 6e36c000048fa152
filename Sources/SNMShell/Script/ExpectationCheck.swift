import SNMNetwork
import SNMQuery
import SNMWire

/// Decides one `expect` against what the statements before it left behind.
///
/// ```swift
/// let check = ExpectationCheck(statement: .rows(.equal, node), last: outcome, previous: outcome)
/// switch try check.evaluate(in: scope) {
/// case .held: break
/// case .failed(let expected, let found): print("expected \(expected), found \(found)")
/// }
/// ```
/// Throws a `Diagnostic` when a variable cannot be filled in, a count is not a whole number, or a
/// `matches` pattern is not a regular expression.
struct ExpectationCheck {
  /// The `expect` as parsed.
  var statement: ExpectStatement
  /// The last statement that sent a request (or signed in), for `rows` and `status`.
  var last: StatementOutcome?
  /// The statement just before this one (nil when there is none), for `error`.
  var previous: StatementOutcome?

  /// Whether the expectation held; when not, what it wanted and what was there.
  enum Verdict: Sendable, Equatable {
    case held
    case failed(expected: String, found: String)
  }

  func evaluate(in scope: VariableScope) throws(Diagnostic) -> Verdict {
    switch statement {
    case .rows(let comparison, let node):
      let wanted = try count(node, clause: "expect rows", in: scope)
      let expected = phrase(comparison, rows(wanted))
      guard let last else { return .failed(expected: expected, found: Self.noResult) }
      if let failure = last.failure {
        return .failed(expected: expected, found: Self.describe(failure, status: last.status))
      }
      let held = compare(
        .number(JSONNumber(last.rowCount)), comparison, .number(JSONNumber(wanted)))
      guard !held else { return .held }
      guard let cap = last.rowCap, last.rowCount == cap else {
        return .failed(expected: expected, found: rows(last.rowCount))
      }
      return .failed(
        expected: expected,
        found: rows(last.rowCount)
          + ", the server's row cap: the answer was cut (add 'all' to the select to read every row)"
      )
    case .status(let comparison, let node):
      let wanted = try count(node, clause: "expect status", in: scope)
      let expected = phrase(comparison, String(wanted))
      guard let last, let status = last.status else {
        return .failed(expected: expected, found: last.map(Self.describe) ?? Self.noResult)
      }
      let held = compare(.number(JSONNumber(status)), comparison, .number(JSONNumber(wanted)))
      return held ? .held : .failed(expected: expected, found: Self.describe(last))
    case .error(let code):
      let wanted = try code.map { node throws(Diagnostic) in
        ValueComparison.text(try ValueEvaluator.json(node, in: scope))
      }
      let expected = wanted.map { "error \($0)" } ?? "an error"
      guard let previous else {
        return .failed(expected: expected, found: "no statement before this 'expect error'")
      }
      guard let failure = previous.failure else {
        return .failed(expected: expected, found: Self.describe(previous))
      }
      guard let wanted else { return .held }
      if failure.code?.lowercased() == wanted.lowercased() { return .held }
      return .failed(expected: expected, found: Self.describe(failure, status: previous.status))
    case .compare(let left, let comparison, let right):
      let a = try ValueEvaluator.json(left, in: scope)
      let b = try ValueEvaluator.json(right, in: scope)
      if comparison == .matches {
        guard case .string(let pattern) = b else {
          throw Diagnostic(.patternNotText(b.typeName), at: right.range)
        }
        do throws(BadPattern) {
          if try ValueComparison.matches(a, pattern: pattern) { return .held }
        } catch {
          throw Diagnostic(.badPattern(pattern), at: right.range)
        }
        return .failed(expected: "text matching /\(pattern)/", found: ValueComparison.describe(a))
      }
      if compare(a, comparison, b) { return .held }
      return .failed(
        expected: phrase(comparison, ValueComparison.describe(b)),
        found: ValueComparison.describe(a))
    default:
      return try evaluateMore(in: scope)
    }
  }

  /// Whether `a comparison b` holds; values that do not order fail `<` `<=` `>` `>=`.
  func compare(_ a: JSONValue, _ comparison: Comparison, _ b: JSONValue) -> Bool {
    switch comparison {
    case .equal: return ValueComparison.equal(a, b)
    case .notEqual: return !ValueComparison.equal(a, b)
    case .contains: return ValueComparison.contains(a, b)
    case .matches: return false
    case .less, .lessEqual, .greater, .greaterEqual:
      guard let order = ValueComparison.order(a, b) else { return false }
      switch comparison {
      case .less: return order == .orderedAscending
      case .lessEqual: return order != .orderedDescending
      case .greater: return order == .orderedDescending
      default: return order != .orderedAscending
      }
    }
  }

  /// `3`, `not 3`, `>= 3`, `containing "x"`.
  func phrase(_ comparison: Comparison, _ value: String) -> String {
    switch comparison {
    case .equal: value
    case .notEqual: "not \(value)"
    case .contains: "a value containing \(value)"
    case .matches: "text matching \(value)"
    default: "\(comparison.rawValue) \(value)"
    }
  }

  func rows(_ count: Int) -> String { count == 1 ? "1 row" : "\(count) rows" }

  /// A whole number of at least 0 for `rows` and `status`.
  func count(_ node: ValueNode, clause: String, in scope: VariableScope) throws(Diagnostic) -> Int {
    let value = try ValueEvaluator.json(node, in: scope)
    if let number = ValueComparison.number(value), let whole = Int("\(number)"), whole >= 0 {
      return whole
    }
    throw Diagnostic(
      .notACount(clause, found: ValueComparison.describe(value)), at: node.range)
  }

  static let noResult = "no result: no query or rpc ran before this 'expect'"

  /// `success (HTTP 201)`, or the failure.
  static func describe(_ outcome: StatementOutcome) -> String {
    if let failure = outcome.failure { return describe(failure, status: outcome.status) }
    return outcome.status.map { "success (HTTP \($0))" } ?? "success"
  }

  /// `error 23505 (HTTP 409): duplicate key value violates unique constraint "..."`.
  static func describe(_ failure: StatementOutcome.Failure, status: Int?) -> String {
    var text = "error"
    if let code = failure.code { text += " \(code)" }
    if let status { text += " (HTTP \(status))" }
    return text + ": " + failure.message
  }
}
