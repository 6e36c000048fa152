import Foundation
import SNMNetwork
import SNMQuery
import SNMWire

/// The expectations after Hurl's asserts: counts, headers, time, a value's size, existence and
/// kind.
extension ExpectationCheck {
  func evaluateMore(in scope: VariableScope) throws(Diagnostic) -> Verdict {
    switch statement {
    case .count(let comparison, let node):
      let wanted = try count(node, clause: "expect count", in: scope)
      let expected = phrase(comparison, "a count of \(wanted)")
      guard let last else { return .failed(expected: expected, found: Self.noResult) }
      if let failure = last.failure {
        return .failed(expected: expected, found: Self.describe(failure, status: last.status))
      }
      guard let total = Self.total(of: last) else {
        let range =
          last.headers?["Content-Range"].map { "Content-Range \($0)" } ?? "no Content-Range"
        return .failed(
          expected: expected, found: "no count (\(range)): add 'count exact' to the query")
      }
      let held = compare(.number(JSONNumber(total)), comparison, .number(JSONNumber(wanted)))
      return held ? .held : .failed(expected: expected, found: "a count of \(total)")
    case .header(let name, let comparison, let node):
      let wanted = try ValueEvaluator.json(node, in: scope)
      let expected = "header \(name) " + phrase(comparison, ValueComparison.describe(wanted))
      guard let last else { return .failed(expected: expected, found: Self.noResult) }
      guard let value = last.headers?[name] else {
        return .failed(expected: expected, found: "no \(name) header")
      }
      return try verdict(
        .string(value), comparison, wanted, range: node.range, expected: expected,
        found: "\(name): \(value)")
    case .time(let comparison, let duration):
      let expected = "a request taking \(comparison.rawValue) \(duration.text)"
      guard let milliseconds = last?.milliseconds else {
        return .failed(expected: expected, found: Self.noResult)
      }
      let took = Int(milliseconds.rounded())
      let held = compare(
        .number(JSONNumber(took)), comparison, .number(JSONNumber(duration.milliseconds)))
      return held ? .held : .failed(expected: expected, found: "\(took) ms")
    case .valueCount(let left, let comparison, let right):
      let value = try ValueEvaluator.json(left, in: scope)
      let wanted = try count(right, clause: "count", in: scope)
      let expected = phrase(comparison, "\(wanted) elements")
      guard let size = Self.size(of: value) else {
        return .failed(
          expected: expected, found: "\(value.typeName), which has no count")
      }
      let held = compare(.number(JSONNumber(size)), comparison, .number(JSONNumber(wanted)))
      return held
        ? .held : .failed(expected: expected, found: "\(size) (\(ValueComparison.describe(value)))")
    case .exists(let node, let negated):
      let value = try Self.lookUp(node, in: scope)
      let spelled = Self.spelling(node)
      switch (value, negated) {
      case (.some, false), (.none, true): return .held
      case (.none, false): return .failed(expected: "\(spelled) to exist", found: "nothing there")
      case (.some(let found), true):
        return .failed(
          expected: "no \(spelled)", found: ValueComparison.describe(found))
      }
    case .isKind(let node, let kind, let negated):
      let value = try ValueEvaluator.json(node, in: scope)
      let held = Self.value(value, is: kind) != negated
      if held { return .held }
      return .failed(
        expected: (negated ? "not " : "") + Self.article(kind),
        found: "\(value.typeName): \(ValueComparison.describe(value))")
    case .within(let inner, _, _):
      return try ExpectationCheck(statement: inner, last: last, previous: previous)
        .evaluate(in: scope)
    default:
      return .held
    }
  }

  /// A comparison of text (`matches` takes a regular expression).
  func verdict(
    _ value: JSONValue, _ comparison: Comparison, _ wanted: JSONValue, range: SourceRange,
    expected: String, found: String
  ) throws(Diagnostic) -> Verdict {
    if comparison == .matches {
      guard case .string(let pattern) = wanted else {
        throw Diagnostic(.patternNotText(wanted.typeName), at: range)
      }
      do throws(BadPattern) {
        if try ValueComparison.matches(value, pattern: pattern) { return .held }
      } catch {
        throw Diagnostic(.badPattern(pattern), at: range)
      }
      return .failed(expected: expected, found: found)
    }
    // A header is text; `== 42` compares with the number's text.
    let text: JSONValue = .string(ValueComparison.text(wanted))
    let held =
      comparison == .less || comparison == .lessEqual || comparison == .greater
        || comparison == .greaterEqual
      ? compare(Self.numeric(value), comparison, Self.numeric(wanted))
      : compare(value, comparison, text)
    return held ? .held : .failed(expected: expected, found: found)
  }

  static func numeric(_ value: JSONValue) -> JSONValue {
    if case .string(let text) = value, let number = JSONNumber(text) { return .number(number) }
    return value
  }

  /// The total after `/` in the last answer's `Content-Range` (`0-9/42`, `*/42`).
  /// Nil when not counted (`*`) or not a range of rows (``ContentRange``).
  static func total(of outcome: StatementOutcome) -> Int? {
    outcome.headers?["Content-Range"].flatMap(ContentRange.init)?.total
  }

  /// Elements of an array, members of an object, characters of a string.
  static func size(of value: JSONValue) -> Int? {
    switch value {
    case .array(let elements): elements.count
    case .object(let members): members.count
    case .string(let text): text.count
    default: nil
    }
  }

  /// The value `node` names, or nil when its path leads nowhere (a missing field, an index past
  /// the end); an unbound variable is still an error.
  static func lookUp(_ node: ValueNode, in scope: VariableScope) throws(Diagnostic) -> JSONValue? {
    guard case .variable(let reference) = node.value, !reference.path.isEmpty else {
      return try ValueEvaluator.json(node, in: scope)
    }
    var root = reference
    root.path = []
    if reference.name == "env" {
      guard case .field(let name)? = reference.path.first else { return nil }
      guard let text = scope.environment[name] else { return nil }
      return reference.path.count == 1 ? .string(text) : nil
    }
    var value = try scope.resolve(root)
    for step in reference.path {
      switch (step, value) {
      case (.field(let field), .object(let object)):
        guard let member = object[field] else { return nil }
        value = member
      case (.index(let index), .array(let elements)):
        guard index < elements.count else { return nil }
        value = elements[index]
      default:
        return nil
      }
    }
    return value
  }

  static func spelling(_ node: ValueNode) -> String {
    if case .variable(let reference) = node.value { return reference.spelling }
    return node.value.canonicalText
  }

  static func value(_ value: JSONValue, is kind: ValueKind) -> Bool {
    switch (kind, value) {
    case (.string, .string), (.number, .number), (.boolean, .bool), (.null, .null),
      (.object, .object), (.array, .array):
      return true
    case (.uuid, .string(let text)):
      return UUID(uuidString: text) != nil
    case (.date, .string(let text)):
      return isDate(text)
    default:
      return false
    }
  }

  /// `2026-11-29`, or a timestamp that starts with one.
  static func isDate(_ text: String) -> Bool {
    let bytes = Array(text.utf8)
    guard bytes.count >= 10 else { return false }
    let digits = [0, 1, 2, 3, 5, 6, 8, 9]
    guard digits.allSatisfy({ bytes[$0] >= 0x30 && bytes[$0] <= 0x39 }),
      bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-")
    else { return false }
    return bytes.count == 10 || bytes[10] == UInt8(ascii: "T") || bytes[10] == UInt8(ascii: " ")
  }

  static func article(_ kind: ValueKind) -> String {
    switch kind {
    case .null: "null"
    case .object, .array, .uuid: "an \(kind.rawValue)"
    default: "a \(kind.rawValue)"
    }
  }
}
