/// A JSON value for the server side, with object keys in their original order.
///
/// ```swift
/// let value = try LocalJSON.parse(#"{"email":"a@b.c","n":1}"#)
/// value["email"]?.stringValue        // "a@b.c"
/// LocalJSON.object([.init("ok", .bool(true))]).serialized()   // {"ok":true}
/// ```
/// Numbers keep their source text, so large integers and decimals pass through unchanged.
public enum LocalJSON: Sendable, Equatable {
  case null
  case bool(Bool)
  /// A number in its JSON text form (`42`, `-1.5e3`).
  case number(String)
  case string(String)
  case array([LocalJSON])
  case object([Member])

  /// One key and value of an object.
  public struct Member: Sendable, Equatable {
    public var key: String
    public var value: LocalJSON

    public init(_ key: String, _ value: LocalJSON) {
      self.key = key
      self.value = value
    }
  }

  /// An integer number.
  public static func int(_ value: Int) -> LocalJSON { .number(String(value)) }

  /// A string, or `null` for `nil`.
  public static func optional(_ value: String?) -> LocalJSON { value.map { .string($0) } ?? .null }

  /// The member named `key` of an object (the last one if repeated), else `nil`.
  public subscript(key: String) -> LocalJSON? {
    guard case .object(let members) = self else { return nil }
    return members.last(where: { $0.key == key })?.value
  }

  public var stringValue: String? {
    if case .string(let text) = self { return text }
    return nil
  }

  /// The value as an integer, for integer numbers only (`3`, not `3.5` or `"3"`).
  public var intValue: Int? {
    if case .number(let text) = self {
      return Int(text) ?? Double(text).flatMap { Int(exactly: $0) }
    }
    return nil
  }

  public var doubleValue: Double? {
    if case .number(let text) = self { return Double(text) }
    return nil
  }

  public var boolValue: Bool? {
    if case .bool(let flag) = self { return flag }
    return nil
  }

  public var arrayValue: [LocalJSON]? {
    if case .array(let items) = self { return items }
    return nil
  }

  public var objectValue: [Member]? {
    if case .object(let members) = self { return members }
    return nil
  }

  public var isNull: Bool { self == .null }
}
