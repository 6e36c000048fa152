import SNMWire

/// One condition of a postgres_changes `filter` (`column=op.value`, Realtime's core operators:
/// eq, neq, lt, lte, gt, gte, in), tested against a change's record.
///
/// ```swift
/// let filter = try RealtimeChangeFilter(parsing: "owner=eq.alice")
/// filter.matches(["owner": "alice"])   // true
/// ```
struct RealtimeChangeFilter: Sendable, Equatable {
  enum Operator: String, Sendable, CaseIterable {
    case eq, neq, lt, lte, gt, gte, `in`
  }

  var column: String
  var op: Operator
  var values: [String]

  /// Reads `column=op.value` (`in` takes `(a,b,...)`, at most 100 values); a message saying what
  /// is wrong otherwise.
  init(parsing text: String) throws(RealtimeChangeFilterError) {
    guard let equals = text.firstIndex(of: "="), equals != text.startIndex else {
      throw RealtimeChangeFilterError("filter \(text) is not column=operator.value")
    }
    column = String(text[..<equals])
    let rest = text[text.index(after: equals)...]
    guard let dot = rest.firstIndex(of: "."), let op = Operator(rawValue: String(rest[..<dot]))
    else {
      throw RealtimeChangeFilterError(
        "filter \(text): the operator must be one of \(Operator.allCases.map(\.rawValue).joined(separator: ", "))"
      )
    }
    self.op = op
    let value = String(rest[rest.index(after: dot)...])
    if op == .in {
      guard value.hasPrefix("("), value.hasSuffix(")"), value.count >= 2 else {
        throw RealtimeChangeFilterError("filter \(text): in takes a list (a,b,...)")
      }
      values = value.dropFirst().dropLast().split(separator: ",", omittingEmptySubsequences: false)
        .map {
          Self.unquoted(String($0))
        }
      guard values.count <= 100 else {
        throw RealtimeChangeFilterError("filter \(text): in takes at most 100 values")
      }
    } else {
      values = [Self.unquoted(value)]
    }
  }

  /// A filter's conditions: split at the commas outside `(...)` and quotes (`a=eq.1,b=in.(x,y)`
  /// is two).
  static func conditions(_ text: String) -> [String] {
    var parts: [String] = []
    var current = ""
    var depth = 0
    var quoted = false
    for character in text {
      switch character {
      case "\"": quoted.toggle()
      case "(" where !quoted: depth += 1
      case ")" where !quoted: depth = max(0, depth - 1)
      case "," where !quoted && depth == 0:
        parts.append(current)
        current = ""
        continue
      default: break
      }
      current.append(character)
    }
    parts.append(current)
    return parts
  }

  private static func unquoted(_ text: String) -> String {
    let trimmed = text.trimmingSpaces
    guard trimmed.count >= 2, trimmed.hasPrefix("\""), trimmed.hasSuffix("\"") else {
      return trimmed
    }
    return String(trimmed.dropFirst().dropLast()).replacingOccurrences(of: "\\\"", with: "\"")
  }

  /// Whether `record` passes: a column missing or null never does; numbers compare as numbers,
  /// everything else as text.
  func matches(_ record: JSONObject) -> Bool {
    guard let value = record[column], !value.isNull else { return false }
    switch op {
    case .eq: return compare(value, values[0]) == 0
    case .neq: return compare(value, values[0]).map { $0 != 0 } ?? false
    case .lt: return compare(value, values[0]).map { $0 < 0 } ?? false
    case .lte: return compare(value, values[0]).map { $0 <= 0 } ?? false
    case .gt: return compare(value, values[0]).map { $0 > 0 } ?? false
    case .gte: return compare(value, values[0]).map { $0 >= 0 } ?? false
    case .in: return values.contains { compare(value, $0) == 0 }
    }
  }

  /// -1, 0, 1; nil when the two cannot be compared (a number against text that is none).
  private func compare(_ value: JSONValue, _ text: String) -> Int? {
    switch value {
    case .number(let number):
      guard let left = number.doubleValue, let right = Double(text) else { return nil }
      return left < right ? -1 : left > right ? 1 : 0
    case .bool(let flag): return (flag ? "true" : "false") == text ? 0 : 1
    case .string(let string): return string < text ? -1 : string > text ? 1 : 0
    default:
      let string = value.serialized()
      return string < text ? -1 : string > text ? 1 : 0
    }
  }
}
