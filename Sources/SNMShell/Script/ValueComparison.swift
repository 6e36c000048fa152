import Foundation
import SNMNetwork
import SNMWire

/// How `expect` compares values: numbers by value (a numeric string counts as its number), strings
/// by their text, arrays in order, objects by their members whatever the key order.
///
/// ```swift
/// ValueComparison.equal(.number(3), .string("3"))          // true
/// ValueComparison.order(.string("2026-01-02"), "2026-01-10") // .orderedAscending
/// ValueComparison.contains(["a", "b"], "b")                 // true
/// ```
enum ValueComparison {
  /// Whether `a` and `b` are the same value.
  static func equal(_ a: JSONValue, _ b: JSONValue) -> Bool {
    switch (a, b) {
    case (.number, _), (_, .number):
      guard let x = number(a), let y = number(b) else { return false }
      return x == y
    case (.string(let x), .string(let y)): return x == y
    case (.bool(let x), .bool(let y)): return x == y
    case (.null, .null): return true
    case (.array(let x), .array(let y)):
      return x.count == y.count && zip(x, y).allSatisfy { equal($0, $1) }
    case (.object(let x), .object(let y)):
      return x.count == y.count
        && x.allSatisfy { member in y[member.key].map { equal(member.value, $0) } ?? false }
    default: return false
    }
  }

  /// The order of `a` and `b` when both are numbers or both strings (dates and timestamps order as
  /// text); nil when they do not order.
  static func order(_ a: JSONValue, _ b: JSONValue) -> ComparisonResult? {
    if case .string(let x) = a, case .string(let y) = b, number(a) == nil || number(b) == nil {
      if x == y { return .orderedSame }
      return x.unicodeScalars.lexicographicallyPrecedes(y.unicodeScalars)
        ? .orderedAscending : .orderedDescending
    }
    guard let x = number(a), let y = number(b) else { return nil }
    return x == y ? .orderedSame : x < y ? .orderedAscending : .orderedDescending
  }

  /// `a contains b`: text within a string; an element (or, for an array `b`, every element) of an
  /// array; for objects, every member of `b` within `a` (as Postgres' `@>`).
  static func contains(_ a: JSONValue, _ b: JSONValue) -> Bool {
    switch (a, b) {
    case (.string(let text), _):
      if case .string(let part) = b { return text.contains(part) }
      guard case .number(let part) = b else { return false }
      return text.contains(part.text)
    case (.array(let elements), .array(let wanted)):
      return wanted.allSatisfy { item in elements.contains { contains($0, item) } }
    case (.array(let elements), _):
      return elements.contains { equal($0, b) }
    case (.object(let object), .object(let wanted)):
      return wanted.allSatisfy { member in
        object[member.key].map { contains($0, member.value) } ?? false
      }
    default:
      return equal(a, b)
    }
  }

  /// `a matches pattern`: the pattern (a regular expression) is found in `a`'s text.
  /// - Throws: `BadPattern` when `pattern` is not a valid expression.
  static func matches(_ a: JSONValue, pattern: String) throws(BadPattern) -> Bool {
    let expression: NSRegularExpression
    do {
      expression = try NSRegularExpression(pattern: pattern)
    } catch {
      throw BadPattern()
    }
    let text = text(a)
    let range = NSRange(text.startIndex..<text.endIndex, in: text)
    return expression.firstMatch(in: text, range: range) != nil
  }

  /// A value's text as it reads in a message or a string: a string as itself, the rest as JSON.
  static func text(_ value: JSONValue) -> String {
    if case .string(let text) = value { return text }
    return value.serialized()
  }

  /// A value as an expectation message shows it: compact JSON (so "3" and 3, null and "null" are
  /// told apart), shortened past 200 characters.
  static func describe(_ value: JSONValue) -> String {
    let text = value.serialized()
    return text.count > 200 ? String(text.prefix(197)) + "..." : text
  }

  /// The number a value stands for: a JSON number, or a string that is one.
  static func number(_ value: JSONValue) -> Decimal? {
    switch value {
    case .number(let number):
      return Decimal(string: number.text, locale: Locale(identifier: "en_US_POSIX"))
    case .string(let text):
      guard JSONNumber(text.trimmingCharacters(in: .whitespaces)) != nil else { return nil }
      return Decimal(string: text, locale: Locale(identifier: "en_US_POSIX"))
    default: return nil
    }
  }
}

/// A `matches` pattern that is not a regular expression.
struct BadPattern: Error {}
