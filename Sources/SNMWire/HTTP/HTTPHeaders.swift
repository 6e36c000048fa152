/// HTTP header fields in the order they were added or received, looked up without regard to
/// case, for requests and responses on both sides of the wire.
///
/// ```swift
/// var headers: HTTPHeaders = ["Content-Type": "application/json"]
/// headers["Prefer"] = "return=minimal"
/// headers["content-type"]          // "application/json"
/// headers.values(for: "Prefer")    // every Prefer field, in order
/// ```
/// Names compare as ASCII without case (RFC 9110 §5.1: field names are tokens).
public struct HTTPHeaders: Sendable, Hashable {
  /// One header line (the name keeps the case it was written in).
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
    get { fields.first { Self.sameName($0.name, name) }?.value }
    set {
      guard let newValue else {
        fields.removeAll { Self.sameName($0.name, name) }
        return
      }
      if let index = fields.firstIndex(where: { Self.sameName($0.name, name) }) {
        fields[index].value = newValue
        var later = index + 1
        while later < fields.count {
          if Self.sameName(fields[later].name, name) {
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

  /// Every value of the fields named `name` (any case), in order.
  public func values(for name: String) -> [String] {
    fields.filter { Self.sameName($0.name, name) }.map(\.value)
  }

  /// The transfer codings the `Transfer-Encoding` fields list, in order, lowercased (`chunked`
  /// last for a body in chunks); empty when there is none. Cut on the bytes (the commas, the
  /// spaces and tabs around a coding), as libcurl cuts them: cut as text, by characters, it took
  /// 8k instructions an answer.
  public var transferCodings: [String] {
    var codings: [String] = []
    for field in fields where Self.sameName(field.name, "Transfer-Encoding") {
      for var coding in field.value.utf8.split(separator: UInt8(ascii: ",")) {
        while let first = coding.first, first == 0x20 || first == 0x09 { coding.removeFirst() }
        while let last = coding.last, last == 0x20 || last == 0x09 { coding.removeLast() }
        codings.append(String(decoding: coding, as: UTF8.self).lowercased())
      }
    }
    return codings
  }

  /// Makes room for `count` fields in all.
  public mutating func reserveCapacity(_ count: Int) {
    fields.reserveCapacity(count)
  }

  /// Adds a field at the end, even when one with that name exists.
  public mutating func append(name: String, value: String) {
    fields.append(Field(name: name, value: value))
  }

  /// `true` when a field named `name` (any case) exists.
  public func contains(_ name: String) -> Bool {
    fields.contains { Self.sameName($0.name, name) }
  }

  /// `true` when there are no fields.
  public var isEmpty: Bool { fields.isEmpty }

  /// Whether two field names are the same, ASCII letters compared without case (other bytes
  /// exactly), without making lowercased copies.
  public static func sameName(_ lhs: String, _ rhs: String) -> Bool {
    guard lhs.utf8.count == rhs.utf8.count else { return false }
    var lhs = lhs
    var rhs = rhs
    return lhs.withUTF8 { left in
      rhs.withUTF8 { right in
        for index in 0..<left.count where left[index] != right[index] {
          let a = left[index]
          let b = right[index]
          let lowerA = a >= 0x41 && a <= 0x5A ? a + 0x20 : a
          let lowerB = b >= 0x41 && b <= 0x5A ? b + 0x20 : b
          if lowerA != lowerB { return false }
        }
        return true
      }
    }
  }
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
