/// A value as written, with its range: a filter operand, a JSON body, a `let` or `expect` operand.
public struct ValueNode: Sendable, Equatable {
  public var value: Value
  public var range: SourceRange

  public init(_ value: Value, range: SourceRange) {
    self.value = value
    self.range = range
  }
}

/// The values of the language. JSON bodies are values too: `{...}` objects keep their key order.
public enum Value: Sendable, Equatable {
  /// `'single'` or `"double"`, possibly with `${var}` parts.
  case string(StringLiteral)
  /// A JSON number, exactly as written.
  case number(String)
  case bool(Bool)
  case null
  /// A bare UUID, as written.
  case uuid(String)
  /// A bare date (`2026-11-29`), as written.
  case date(String)
  /// A bare timestamp (`2026-11-29T10:00:00Z`), as written.
  case timestamp(String)
  case variable(VariableRef)
  /// `[a, b]`: a JSON array in a body, a Postgres array literal `{a,b}` in a filter.
  case array([ValueNode])
  /// `{"k": v, ...}` with keys in the order written.
  case object([ObjectMember])
  /// `(a, b)`: the list after `in`.
  case list([ValueNode])
  /// A bare word in value position where the language allows one (`is unknown`).
  case word(String)

  /// A short description for messages: "a string", "an object", ...
  public var kindDescription: String {
    switch self {
    case .string: "a string"
    case .number: "a number"
    case .bool: "a boolean"
    case .null: "null"
    case .uuid: "a UUID"
    case .date: "a date"
    case .timestamp: "a timestamp"
    case .variable: "a variable"
    case .array: "an array"
    case .object: "an object"
    case .list: "a list"
    case .word: "a bare word"
    }
  }
}

/// One `"key": value` of an object, in the order written.
public struct ObjectMember: Sendable, Equatable {
  public var key: String
  public var keyRange: SourceRange
  public var value: ValueNode
}

/// A string literal: text, with `${name}` (and, in `echo`, `$name.field`) parts to fill in.
public struct StringLiteral: Sendable, Equatable {
  /// The text when nothing is filled in (most strings, which make no array), or the parts: one
  /// field, so that a constant string holds (and frees) one String and no empty array.
  private let storage: Storage

  private enum Storage: Sendable, Equatable {
    case constant(String)
    case parts([StringPart])
  }

  public init(parts: [StringPart]) {
    if parts.isEmpty {
      storage = .constant("")
    } else if parts.count == 1, case .text(let text) = parts[0] {
      storage = .constant(text)
    } else {
      storage = .parts(parts)
    }
  }

  public init(_ text: String) {
    storage = .constant(text)
  }

  /// The text when nothing is filled in (most strings).
  public var constantText: String? {
    if case .constant(let text) = storage { return text }
    return nil
  }

  /// The text and variable parts in order.
  public var parts: [StringPart] {
    switch storage {
    case .constant(let text): [.text(text)]
    case .parts(let parts): parts
    }
  }

  /// The variables the string refers to.
  public var variables: [VariableRef] {
    guard case .parts(let parts) = storage else { return [] }
    return parts.compactMap { part in
      if case .variable(let reference) = part { return reference }
      return nil
    }
  }
}

/// A piece of a string literal.
public enum StringPart: Sendable, Equatable {
  case text(String)
  case variable(VariableRef)
  /// `${uuid}`, `${now}`, `${now + 1h}`, `${random 8}`: a new value each time it is filled in.
  case generator(Generator)
}

/// `$name`, `$name.field`, `$name[0].field`, `$env.NAME`, `$session.user_id`.
public struct VariableRef: Sendable, Equatable {
  public var name: String
  public var path: [Step] = []
  public var range: SourceRange

  /// `.field` or `[index]`.
  public enum Step: Sendable, Equatable {
    case field(String)
    case index(Int)
  }

  /// The reference as written: `$dog.id`, `$rows[0].name`.
  public var spelling: String {
    var text = "$" + name
    for step in path {
      switch step {
      case .field(let field): text += "." + field
      case .index(let index): text += "[\(index)]"
      }
    }
    return text
  }
}
