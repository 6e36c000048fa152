/// A JSON document as written: object keys keep their order, numbers keep their exact text.
///
/// ```swift
/// let body: JSONValue = ["name": "Kim", "age": 3]
/// body.serialized()                     // {"name":"Kim","age":3}
/// let rows = try JSONValue(parsing: "[{\"zip\": 90210}]")
/// rows[0]?["zip"]?.numberValue?.text    // "90210"
/// ```
///
/// Equality is structural and order-sensitive: `{"a":1,"b":2}` differs from `{"b":2,"a":1}`, and the
/// number `1.0` differs from `1` (their texts differ). Parsing throws ``JSONParseError``.
public enum JSONValue: Sendable, Hashable {
  case null
  case bool(Bool)
  case number(JSONNumber)
  case string(String)
  case array([JSONValue])
  case object(JSONObject)
}

extension JSONValue {
  /// `true` for `.null`.
  public var isNull: Bool {
    if case .null = self { return true }
    return false
  }

  /// The boolean, when this is `.bool`.
  public var boolValue: Bool? {
    if case .bool(let value) = self { return value }
    return nil
  }

  /// The integer, when this is a number whose text is an integer that fits an `Int`.
  public var intValue: Int? { numberValue?.intValue }

  /// The number as the nearest `Double`, when this is `.number`.
  public var doubleValue: Double? { numberValue?.doubleValue }

  /// The number, when this is `.number`.
  public var numberValue: JSONNumber? {
    if case .number(let value) = self { return value }
    return nil
  }

  /// The string, when this is `.string`.
  public var stringValue: String? {
    if case .string(let value) = self { return value }
    return nil
  }

  /// The elements, when this is `.array`.
  public var arrayValue: [JSONValue]? {
    if case .array(let value) = self { return value }
    return nil
  }

  /// The object, when this is `.object`.
  public var objectValue: JSONObject? {
    if case .object(let value) = self { return value }
    return nil
  }

  /// The member named `key` (the last one when a key repeats), when this is an object that has it.
  public subscript(key: String) -> JSONValue? {
    objectValue?[key]
  }

  /// The element at `index`, when this is an array and the index is in range.
  public subscript(index: Int) -> JSONValue? {
    guard case .array(let elements) = self, elements.indices.contains(index) else { return nil }
    return elements[index]
  }

  /// The name of this value's JSON type, as messages print it: `null`, `boolean`, `number`, ...
  public var typeName: String {
    switch self {
    case .null: "null"
    case .bool: "boolean"
    case .number: "number"
    case .string: "string"
    case .array: "array"
    case .object: "object"
    }
  }
}

extension JSONValue {
  /// An integer: `.int(port)`.
  public static func int(_ value: Int) -> JSONValue { .number(JSONNumber(value)) }

  /// An object with these members, in order (duplicates kept): a server's answer built member by
  /// member, `.object([.init("code", "PGRST116"), .init("details", .optional(details))])`.
  public static func object(_ members: [JSONObject.Member]) -> JSONValue {
    .object(JSONObject(members))
  }

  /// A string, or `null` for nil.
  public static func optional(_ value: String?) -> JSONValue {
    value.map(JSONValue.string) ?? .null
  }
}

extension JSONValue: ExpressibleByNilLiteral, ExpressibleByBooleanLiteral,
  ExpressibleByStringLiteral,
  ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral, ExpressibleByArrayLiteral,
  ExpressibleByDictionaryLiteral
{
  public init(nilLiteral: ()) { self = .null }
  public init(booleanLiteral value: Bool) { self = .bool(value) }
  public init(stringLiteral value: String) { self = .string(value) }
  public init(integerLiteral value: Int) { self = .number(JSONNumber(value)) }
  public init(floatLiteral value: Double) { self = .number(JSONNumber(floatLiteral: value)) }
  public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }

  /// Members in the order written: `["b": 1, "a": 2]` serializes as `{"b":1,"a":2}`.
  public init(dictionaryLiteral elements: (String, JSONValue)...) {
    self = .object(JSONObject(elements))
  }
}

extension JSONValue: CustomStringConvertible {
  /// The compact serialization, as ``serialized()`` returns it.
  public var description: String { serialized() }
}
