import SNMNetwork
import SNMWire

/// The compiler's messages: filling in variables and handing the statement to the builder.
extension DiagnosticMessage {
  static func environmentNotSet(_ name: String) -> Self {
    Self(id: "env-not-set", "the environment variable '\(name)' is not set")
  }

  static func noSession(_ spelling: String) -> Self {
    Self(id: "no-session", "'\(spelling)' needs a signed-in session")
  }

  static func missingField(_ spelling: String, field: String) -> Self {
    Self(id: "missing-field", "'\(spelling)' has no field '\(field)'")
  }

  static func indexOutOfRange(_ spelling: String, count: Int) -> Self {
    Self(id: "index-out-of-range", "'\(spelling)' is past the end of an array of \(count)")
  }

  static func notAContainer(_ spelling: String, holds: String, wanted: String) -> Self {
    Self(id: "not-a-container", "'\(spelling)' holds \(holds), not \(wanted)")
  }

  static func variableKind(_ spelling: String, holds: String, context: String, expected: String)
    -> Self
  {
    Self(id: "variable-kind", "'\(spelling)' holds \(holds), but \(context) needs \(expected)")
  }

  static func builderRefused(_ reason: String) -> Self {
    Self(id: "builder-refused", reason)
  }

  static func notARequestStatement(_ what: String) -> Self {
    Self(id: "not-a-request", "\(what) sends no request to the REST API")
  }
}

extension JSONValue {
  /// "a string", "an array of 2", "an object" for messages.
  var kindDescription: String {
    switch self {
    case .null: "null"
    case .bool: "a boolean"
    case .number: "a number"
    case .string: "a string"
    case .array(let elements): "an array of \(elements.count)"
    case .object: "an object"
    }
  }
}
