import SNMNetwork
import SNMWire

/// The variables a statement may use: values bound by `let` or `--var`, the process environment for
/// `$env.NAME`, and `$session` (an object with `user_id` and `role`, set by the shell after `login`).
///
/// ```swift
/// var scope = VariableScope(environment: ProcessInfo.processInfo.environment)
/// scope["dog"] = ["id": "0c8e5f7a-6b9d-4f1e-9a3b-2d4c6e8f0a1b", "name": "Bori"]
/// let builder = try StatementCompiler(manager: manager, scope: scope).compile(statement)
/// ```
public struct VariableScope: Sendable {
  /// Bound values by name (without `$`).
  public var values: [String: JSONValue]
  /// What `$env.NAME` reads.
  public var environment: [String: String]
  /// When set, an unbound variable stands for a placeholder instead of failing: `snm check` and
  /// `explain` of statements whose variables are bound only at run time.
  public var placeholders: Bool

  public init(
    values: [String: JSONValue] = [:], environment: [String: String] = [:],
    placeholders: Bool = false
  ) {
    self.values = values
    self.environment = environment
    self.placeholders = placeholders
  }

  public subscript(name: String) -> JSONValue? {
    get { values[name] }
    set { values[name] = newValue }
  }

  /// The names bound, for `Checker` (which adds `env` and `session`).
  public var names: Set<String> { Set(values.keys) }

  /// Whether `reference` stands for a placeholder: placeholders are on and nothing binds it.
  public func isPlaceholder(_ reference: VariableRef) -> Bool {
    guard placeholders else { return false }
    if reference.name == "env" {
      guard case .field(let name)? = reference.path.first else { return false }
      return environment[name] == nil
    }
    return values[reference.name] == nil
  }

  /// The value `reference` names, or a diagnostic at its range.
  public func resolve(_ reference: VariableRef) throws(Diagnostic) -> JSONValue {
    let spelling = reference.spelling
    var value: JSONValue
    var steps = reference.path[...]
    if reference.name == "env" {
      guard case .field(let name)? = steps.first else {
        throw Diagnostic(
          .notAContainer("$env", holds: "the environment", wanted: "a value"), at: reference.range,
          help: "write $env.NAME")
      }
      steps = steps.dropFirst()
      guard let text = environment[name] else {
        if placeholders { return .string(spelling) }
        throw Diagnostic(
          .environmentNotSet(name), at: reference.range,
          help: "export \(name)=... before running snm")
      }
      value = .string(text)
    } else if let bound = values[reference.name] {
      value = bound
    } else if placeholders {
      return .string(spelling)
    } else if reference.name == "session" {
      throw Diagnostic(.noSession(spelling), at: reference.range, help: "run 'login' first")
    } else {
      throw Diagnostic(
        .undefinedVariable(spelling), at: reference.range,
        help: DidYouMean.suggest(reference.name, among: values.keys.sorted()).map {
          "did you mean '$\($0)'?"
        }
          ?? "bind it first with 'let \(reference.name) = ...' or pass --var \(reference.name)=VALUE"
      )
    }
    var walked = "$" + reference.name
    for step in steps {
      value = try Self.step(into: value, step, walked: walked, reference: reference)
      switch step {
      case .field(let field): walked += "." + field
      case .index(let index): walked += "[\(index)]"
      }
    }
    return value
  }

  static func step(
    into value: JSONValue, _ step: VariableRef.Step, walked: String, reference: VariableRef
  )
    throws(Diagnostic) -> JSONValue
  {
    switch (step, value) {
    case (.field(let field), .object(let object)):
      guard let member = object[field] else {
        let keys = Array(object.keys)
        throw Diagnostic(
          .missingField(walked, field: field), at: reference.range,
          help: DidYouMean.suggest(field, among: keys).map { "did you mean '\(walked).\($0)'?" }
            ?? (keys.isEmpty
              ? "it is an empty object" : "its fields: " + keys.joined(separator: ", ")))
      }
      return member
    case (.index(let index), .array(let elements)):
      guard index < elements.count else {
        throw Diagnostic(
          .indexOutOfRange("\(walked)[\(index)]", count: elements.count), at: reference.range)
      }
      return elements[index]
    case (.field(let field), .array(let elements)):
      throw Diagnostic(
        .notAContainer(walked, holds: value.kindDescription, wanted: "an object"),
        at: reference.range,
        help: elements.isEmpty
          ? "the query found no rows"
          : "write \(walked)[0].\(field), or end the query of the 'let' with 'single'")
    case (.field, _):
      throw Diagnostic(
        .notAContainer(walked, holds: value.kindDescription, wanted: "an object"),
        at: reference.range)
    case (.index, _):
      throw Diagnostic(
        .notAContainer(walked, holds: value.kindDescription, wanted: "an array"),
        at: reference.range)
    }
  }
}
