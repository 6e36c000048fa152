import Foundation
import SNMNetwork
import SNMWire

/// A value in a filter or an `rpc get` argument, keeping the Swift type it came from so a request
/// can print itself as a builder chain.
///
/// Rendering (``SupabaseQueryRepresentable``): strings as-is, numbers as written, `true`/`false`,
/// UUIDs lowercase, dates ISO 8601 in UTC with milliseconds, arrays as Postgres array literals
/// (`{a,"b,c"}`), JSON objects compact with keys in order.
public indirect enum SupabaseQueryValue: Sendable, Hashable {
  case string(String)
  case int(Int)
  case double(Double)
  case bool(Bool)
  case uuid(UUID)
  case date(Date)
  case null
  case array([SupabaseQueryValue])
  /// A JSON value: strings, numbers and arrays render like the cases above, objects as JSON.
  case json(JSONValue)
}

/// A Swift value that can stand in a filter: `String`, `Int`, `Double`, `Bool`, `UUID`, `Date`,
/// arrays and optionals of those, `JSONValue` and `JSONObject`.
///
/// ```swift
/// .equal("id", UUID())            // id=eq.0c8e5f7a-...   (lowercase)
/// .contains("tags", ["a,b", "c"]) // tags=cs.{"a,b",c}
/// ```
public protocol SupabaseQueryRepresentable: Sendable {
  /// The value with its Swift type remembered.
  var queryValue: SupabaseQueryValue { get }
}

extension SupabaseQueryRepresentable {
  /// The value as it goes after the operator at the top level: never quoted.
  public var rawQueryValue: String { queryValue.rendered }
}

extension SupabaseQueryValue: SupabaseQueryRepresentable {
  public var queryValue: SupabaseQueryValue { self }
}

extension String: SupabaseQueryRepresentable {
  public var queryValue: SupabaseQueryValue { .string(self) }
}

extension Substring: SupabaseQueryRepresentable {
  public var queryValue: SupabaseQueryValue { .string(String(self)) }
}

extension Int: SupabaseQueryRepresentable {
  public var queryValue: SupabaseQueryValue { .int(self) }
}

extension Double: SupabaseQueryRepresentable {
  public var queryValue: SupabaseQueryValue { .double(self) }
}

extension Bool: SupabaseQueryRepresentable {
  public var queryValue: SupabaseQueryValue { .bool(self) }
}

extension UUID: SupabaseQueryRepresentable {
  public var queryValue: SupabaseQueryValue { .uuid(self) }
}

extension Date: SupabaseQueryRepresentable {
  public var queryValue: SupabaseQueryValue { .date(self) }
}

extension JSONValue: SupabaseQueryRepresentable {
  public var queryValue: SupabaseQueryValue { .json(self) }
}

extension JSONObject: SupabaseQueryRepresentable {
  public var queryValue: SupabaseQueryValue { .json(.object(self)) }
}

extension Optional: SupabaseQueryRepresentable where Wrapped: SupabaseQueryRepresentable {
  /// `nil` is `.null` (`NULL` inside array literals).
  public var queryValue: SupabaseQueryValue { self?.queryValue ?? .null }
}

extension Array: SupabaseQueryRepresentable where Element: SupabaseQueryRepresentable {
  public var queryValue: SupabaseQueryValue { .array(map(\.queryValue)) }
}

extension SupabaseQueryValue {
  /// The text after the operator at the top level (never quoted: PostgREST reads it to the end).
  public var rendered: String {
    switch self {
    case .string(let text): text
    case .int(let number): String(number)
    case .double(let number): number.description
    case .bool(let flag): flag ? "true" : "false"
    case .uuid(let uuid): uuid.uuidString.lowercased()
    case .date(let date): ISO8601Timestamp.string(from: date)
    case .null: "null"
    case .array(let elements): PostgresLiteral.array(elements)
    case .json(let json):
      switch json {
      case .string(let text): text
      case .number(let number): number.text
      case .bool(let flag): flag ? "true" : "false"
      case .null: "null"
      case .array(let elements): PostgresLiteral.array(elements.map(SupabaseQueryValue.json))
      case .object: json.serialized()
      }
    }
  }

  /// `true` for `.null` and `.json(.null)`.
  var isNull: Bool {
    switch self {
    case .null, .json(.null): true
    default: false
    }
  }

  /// The elements when this is an array (`.array` or a JSON array).
  var arrayElements: [SupabaseQueryValue]? {
    switch self {
    case .array(let elements): elements
    case .json(.array(let elements)): elements.map(SupabaseQueryValue.json)
    default: nil
    }
  }
}
