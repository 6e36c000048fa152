import Foundation
import SNMNetwork
import SNMWire

/// Swift source text for values, as a rendered builder chain shows them.
public enum SwiftLiteral {
  /// How much of each value a chain shows.
  public enum Style: Sendable, Hashable {
    /// As snm-language.md §6 shows it: bodies `...`, `UUID(...)`, `Date(...)`.
    case abbreviated
    /// Everything spelled out so the chain compiles: body literals, `UUID(uuidString: "...")!`.
    case full
  }

  /// A double-quoted Swift string literal with `\"`, `\\`, `\n`, `\t`, `\r` and `\u{..}` escapes.
  public static func string(_ text: String) -> String {
    "\"" + stringContents.escape(text) + "\""
  }

  static let stringContents = ScalarEscaping(
    ["\"": "\\\"", "\\": "\\\\", "\n": "\\n", "\t": "\\t", "\r": "\\r"],
    other: { $0 < 0x20 || $0 == 0x7f ? "\\u{" + String($0, radix: 16) + "}" : nil })

  /// A filter value.
  static func value(_ value: SupabaseQueryValue, style: Style) -> String {
    switch value {
    case .string(let text): return string(text)
    case .int(let number): return String(number)
    case .double(let number): return number.description
    case .bool(let flag): return flag ? "true" : "false"
    case .uuid(let uuid):
      return style == .abbreviated
        ? "UUID(...)" : "UUID(uuidString: \(string(uuid.uuidString.lowercased())))!"
    case .date(let date):
      return style == .abbreviated
        ? "Date(...)" : "Date(timeIntervalSince1970: \(date.timeIntervalSince1970))"
    case .null: return "nil"
    case .array(let elements):
      return "[" + elements.map { self.value($0, style: style) }.joined(separator: ", ") + "]"
    case .json(let json): return self.json(json)
    }
  }

  /// A JSON value as a `JSONValue` literal: `["name": "Kim", "tags": ["a"]]`, `[:]`, `nil`.
  public static func json(_ value: JSONValue) -> String {
    switch value {
    case .null: return "nil"
    case .bool(let flag): return flag ? "true" : "false"
    case .number(let number): return number.text
    case .string(let text): return string(text)
    case .array(let elements): return "[" + elements.map(json).joined(separator: ", ") + "]"
    case .object(let object):
      if object.isEmpty { return "[:]" }
      return "[" + object.map { string($0.key) + ": " + json($0.value) }.joined(separator: ", ")
        + "]"
    }
  }
}
