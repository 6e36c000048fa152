/// HTTP header fields in arrival order, looked up without regard to case.
///
/// ```swift
/// var headers = HTTPHeaders()
/// headers.add("Content-Type", "application/json")
/// headers["content-type"]          // "application/json"
/// headers.values(for: "Prefer")    // every Prefer field, in order
/// ```
public struct HTTPHeaders: Sendable, Equatable, Sequence {
  /// One field as received (name keeps its case).
  public struct Field: Sendable, Equatable {
    public var name: String
    public var value: String

    public init(_ name: String, _ value: String) {
      self.name = name
      self.value = value
    }
  }

  public private(set) var fields: [Field] = []

  public init() {}

  public init(_ pairs: [(String, String)]) {
    fields = pairs.map { Field($0.0, $0.1) }
  }

  /// The first value named `name` (any case), or `nil`. Setting replaces every field of that name.
  public subscript(name: String) -> String? {
    get {
      for field in fields where Self.equalNames(field.name, name) { return field.value }
      return nil
    }
    set {
      fields.removeAll { Self.equalNames($0.name, name) }
      if let newValue { fields.append(Field(name, newValue)) }
    }
  }

  /// Every value named `name`, in order.
  public func values(for name: String) -> [String] {
    fields.filter { Self.equalNames($0.name, name) }.map(\.value)
  }

  /// Adds a field, keeping any earlier ones of the same name.
  public mutating func add(_ name: String, _ value: String) {
    fields.append(Field(name, value))
  }

  public func contains(_ name: String) -> Bool { self[name] != nil }

  public var count: Int { fields.count }

  public func makeIterator() -> IndexingIterator<[Field]> { fields.makeIterator() }

  /// ASCII case-insensitive comparison of header names.
  static func equalNames(_ lhs: String, _ rhs: String) -> Bool {
    let left = lhs.utf8
    let right = rhs.utf8
    guard left.count == right.count else { return false }
    for (a, b) in zip(left, right) where a != b {
      let lowerA = (65...90).contains(a) ? a + 32 : a
      let lowerB = (65...90).contains(b) ? b + 32 : b
      if lowerA != lowerB { return false }
    }
    return true
  }
}
