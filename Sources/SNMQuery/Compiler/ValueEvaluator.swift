import SNMNetwork
import SNMWire

/// Turns values as written into JSON, filling in variables: bodies, `let` values, `expect` operands,
/// `echo` text.
///
/// ```swift
/// let body = try ValueEvaluator.json(node, in: scope)      // {"name":"Bori","owner":"0c8e..."}
/// let line = try ValueEvaluator.text(echo.value, in: scope) // "made 0c8e..."
/// ```
/// Throws a `Diagnostic` at the variable that is unbound, unset or has no such field.
public enum ValueEvaluator {
  /// The JSON value of `node`: numbers keep their text, UUIDs are lowercased, bare dates and
  /// timestamps become strings, `(a, b)` lists become arrays.
  public static func json(_ node: ValueNode, in scope: VariableScope) throws(Diagnostic)
    -> JSONValue
  {
    switch node.value {
    case .string(let literal): return .string(try text(literal, in: scope))
    case .number(let text): return JSONNumber(text).map(JSONValue.number) ?? .string(text)
    case .bool(let flag): return .bool(flag)
    case .null: return .null
    case .uuid(let text): return .string(text.lowercased())
    case .date(let text), .timestamp(let text), .word(let text): return .string(text)
    case .variable(let reference): return try scope.resolve(reference)
    case .array(let elements), .list(let elements):
      var values: [JSONValue] = []
      values.reserveCapacity(elements.count)
      for element in elements { values.append(try json(element, in: scope)) }
      return .array(values)
    case .object(let members):
      var object = JSONObject()
      object.reserveCapacity(members.count)
      for member in members { object.append(member.key, try json(member.value, in: scope)) }
      return .object(object)
    }
  }

  /// A string literal with its variables filled in (a string variable as its text, anything else as
  /// compact JSON).
  public static func text(_ literal: StringLiteral, in scope: VariableScope) throws(Diagnostic)
    -> String
  {
    if let constant = literal.constantText { return constant }
    var result = ""
    for part in literal.parts {
      switch part {
      case .text(let chunk): result += chunk
      case .variable(let reference): result += interpolation(try scope.resolve(reference))
      case .generator(let generator): result += generator.make()
      }
    }
    return result
  }

  /// What `echo` prints for a value: a string's text, anything else as compact JSON.
  public static func text(_ node: ValueNode, in scope: VariableScope) throws(Diagnostic) -> String {
    try echoed(node, in: scope).text
  }

  /// ``text(_:in:)`` and whether it is JSON text (an object, an array, a number, `true`, `null`:
  /// not a string), which a terminal is shown in JSON's own escapes.
  public static func echoed(_ node: ValueNode, in scope: VariableScope) throws(Diagnostic)
    -> (text: String, json: Bool)
  {
    if case .string(let literal) = node.value { return (try text(literal, in: scope), false) }
    let value = try json(node, in: scope)
    if case .string(let text) = value { return (text, false) }
    return (interpolation(value), true)
  }

  /// A value as it reads inside a string.
  public static func interpolation(_ value: JSONValue) -> String {
    switch value {
    case .string(let text): text
    case .number(let number): number.text
    case .bool(let flag): flag ? "true" : "false"
    case .null: "null"
    default: value.serialized()
    }
  }
}
