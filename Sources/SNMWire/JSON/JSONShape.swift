/// What a JSON document is at its top level, known without building it: its type, how many
/// elements a top-level array has, and whether those elements are rows with the same keys.
///
/// ```swift
/// let document = try JSONDocument(validating: body)
/// document.shape.kind                // .array
/// document.shape.count               // 100000
/// document.shape.uniformObjects      // true: every element is an object with the first's keys
/// ```
public struct JSONShape: Sendable, Hashable {
  /// The JSON type of the top-level value.
  public enum Kind: Sendable, Hashable {
    case null, bool, number, string, array, object
  }

  /// The top-level value's type.
  public let kind: Kind
  /// The elements of a top-level array; 0 for anything else.
  public let count: Int
  /// `true` for a non-empty array whose elements are all objects whose keys are, byte for byte,
  /// the first element's keys in the same order (a PostgREST result).
  public let uniformObjects: Bool

  public init(kind: Kind, count: Int = 0, uniformObjects: Bool = false) {
    self.kind = kind
    self.count = count
    self.uniformObjects = uniformObjects
  }

  /// The shape of a parsed value.
  public init(of value: JSONValue) {
    switch value {
    case .null: self.init(kind: .null)
    case .bool: self.init(kind: .bool)
    case .number: self.init(kind: .number)
    case .string: self.init(kind: .string)
    case .object: self.init(kind: .object)
    case .array(let elements):
      let keys = elements.first?.objectValue?.keys
      let uniform =
        keys != nil && elements.allSatisfy { $0.objectValue.map { $0.keys == keys } ?? false }
      self.init(kind: .array, count: elements.count, uniformObjects: uniform)
    }
  }
}
