/// HTTP header fields in the order they were added, looked up case-insensitively.
///
/// ```swift
/// var headers: HTTPHeaders = ["Content-Type": "application/json"]
/// headers["Prefer"] = "return=minimal"
/// headers["content-type"]          // "application/json"
/// ```
public struct HTTPHeaders: Sendable, Hashable {
  /// One header line.
  public struct Field: Sendable, Hashable {
    public var name: String
    public var value: String

    public init(name: String, value: String) {
      self.name = name
      self.value = value
    }
  }

  /// The fields, in order.
  public private(set) var fields: [Field]

  public init(_ fields: [Field] = []) {
    self.fields = fields
  }

  /// The value of the first field named `name` (any case); setting replaces that field in place (and
  /// drops later ones with the same name) or appends, and setting `nil` removes them all.
  public subscript(name: String) -> String? {
    get { fields.first { $0.name.lowercased() == name.lowercased() }?.value }
    set {
      let key = name.lowercased()
      guard let newValue else {
        fields.removeAll { $0.name.lowercased() == key }
        return
      }
      if let index = fields.firstIndex(where: { $0.name.lowercased() == key }) {
        fields[index].value = newValue
        var later = index + 1
        while later < fields.count {
          if fields[later].name.lowercased() == key {
            fields.remove(at: later)
          } else {
            later += 1
          }
        }
      } else {
        fields.append(Field(name: name, value: newValue))
      }
    }
  }

  /// Adds a field at the end, even when one with that name exists.
  public mutating func append(name: String, value: String) {
    fields.append(Field(name: name, value: value))
  }

  /// `true` when a field named `name` (any case) exists.
  public func contains(_ name: String) -> Bool {
    self[name] != nil
  }

  /// `true` when there are no fields.
  public var isEmpty: Bool { fields.isEmpty }
}

extension HTTPHeaders: Sequence {
  public func makeIterator() -> IndexingIterator<[Field]> {
    fields.makeIterator()
  }
}

extension HTTPHeaders: ExpressibleByDictionaryLiteral {
  /// Fields in the order written.
  public init(dictionaryLiteral elements: (String, String)...) {
    self.init(elements.map { Field(name: $0.0, value: $0.1) })
  }
}
