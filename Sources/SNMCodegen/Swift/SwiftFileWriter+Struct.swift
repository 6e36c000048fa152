extension SwiftFileWriter {
  /// One stored property of a generated struct.
  struct Field {
    /// The Swift name as written (backticks around a keyword).
    var property: String
    /// The JSON key: the column's name.
    var key: String
    /// The Swift type, `?` included.
    var type: String
    /// Whether `init` defaults it to nil.
    var defaultsToNil: Bool
    var mutable: Bool
    var comment: String?
  }

  /// `column` as a field: optional when `optional`; `doubleOptional` (an update of a nullable
  /// column) tells nil (leave it) from `.some(nil)` (set NULL).
  func field(
    _ column: DatabaseCatalog.Column, optional: Bool, mutable: Bool, doubleOptional: Bool = false
  ) -> Field {
    var type = types.swiftType(column.type)
    if optional { type += "?" }
    if doubleOptional { type += "?" }
    return Field(
      property: "", key: column.name, type: type, defaultsToNil: optional || doubleOptional,
      mutable: mutable, comment: column.comment)
  }

  /// The property names of `keys` in one struct, in order, escaped: each unique.
  static func propertyNames(_ keys: [String]) -> [String] {
    var allocator = NameAllocator(reserved: [])
    return keys.map { SwiftName.escaped(allocator.claim(SwiftName.memberWord($0))) }
  }

  /// A `Codable, Hashable, Sendable` struct with a memberwise `init` and `CodingKeys`; the
  /// properties' names are given here, so that they never collide.
  func structBlock(
    _ name: String, fields: [Field], indent: String, identifiable: Bool = false,
    extra: String? = nil
  ) -> String {
    let ac = access.prefix
    let properties = Self.propertyNames(fields.map(\.key))
    let fields = zip(fields, properties).map { field, property in
      var field = field
      field.property = property
      return field
    }
    let inner = indent + "  "
    var out = indent + "\(ac)struct \(name): Codable, Hashable, Sendable"
    out += (identifiable ? ", Identifiable" : "") + " {\n"
    if let extra { out += inner + extra + "\n" }
    for field in fields {
      out += SwiftName.docComment(field.comment, indent: inner)
      out += inner + "\(ac)\(field.mutable ? "var" : "let") \(field.property): \(field.type)\n"
    }
    let parameters = fields.map { field in
      "\(field.property): \(field.type)" + (field.defaultsToNil ? " = nil" : "")
    }
    out += "\n" + inner + "\(ac)init(" + parameters.joined(separator: ", ") + ") {\n"
    for field in fields {
      out += inner + "  self.\(field.property) = \(field.property)\n"
    }
    out += inner + "}\n"
    if !fields.isEmpty {
      out += "\n" + inner + "\(ac)enum CodingKeys: String, CodingKey {\n"
      for field in fields {
        out += inner + "  case \(field.property) = \(SwiftName.literal(field.key))\n"
      }
      out += inner + "}\n"
    }
    return out + indent + "}\n"
  }
}
