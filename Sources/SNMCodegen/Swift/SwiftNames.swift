/// The names the generated file gives the schemas and the types in them, decided once so that
/// every reference agrees: `PublicSchema`, `PublicSchema.UserStatus`, `PublicSchema.Todos`,
/// a second `Status` (an enum and a table of that name) as `Status2`.
struct SwiftNames {
  /// Names a schema's types may not take: the support types and Foundation's, which a type
  /// inside the schema would hide.
  static let reservedTypes: Set<String> = [
    "Functions", "JSONValue", "PGNumeric", "PGBytes", "PGRange", "PostgRESTCoding", "String",
    "Int", "Int16", "Int32", "Int64", "UInt32", "Float", "Double", "Bool", "Date", "UUID", "Data",
    "Decimal", "Optional", "Array", "Dictionary", "Codable", "Hashable", "Sendable", "Never",
    "Void", "Foundation", "Swift", "CodingKey", "Encoder", "Decoder", "Error", "Character",
  ]

  private(set) var schemas: [String: String] = [:]
  private var types: [Key: String] = [:]
  private var relations: [Key: String] = [:]
  private var functions: [Int: String] = [:]

  struct Key: Hashable {
    var schema: String
    var name: String
  }

  init(_ catalog: DatabaseCatalog) {
    var top = NameAllocator(reserved: Self.reservedTypes)
    for schema in catalog.schemas {
      schemas[schema] = top.claim(SwiftName.type(schema) + "Schema")
    }
    for schema in catalog.schemas {
      var inside = NameAllocator(reserved: Self.reservedTypes.union(schemas.values))
      for item in catalog.enums where item.schema == schema {
        types[Key(schema: schema, name: item.name)] = inside.claim(SwiftName.type(item.name))
      }
      for item in catalog.composites where item.schema == schema {
        types[Key(schema: schema, name: item.name)] = inside.claim(SwiftName.type(item.name))
      }
      for item in catalog.relations where item.schema == schema {
        relations[Key(schema: schema, name: item.name)] = inside.claim(SwiftName.type(item.name))
      }
      var calls = NameAllocator(reserved: Self.reservedTypes)
      for (index, item) in catalog.functions.enumerated() where item.schema == schema {
        functions[index] = calls.claim(SwiftName.type(item.name))
      }
    }
  }

  func type(schema: String, name: String) -> String? { types[Key(schema: schema, name: name)] }

  func relation(schema: String, name: String) -> String? {
    relations[Key(schema: schema, name: name)]
  }

  /// The name of the catalog's function at `index`.
  func function(_ index: Int) -> String { functions[index] ?? "Unnamed" }

  func qualifiedType(schema: String, name: String) -> String? {
    guard let space = schemas[schema], let type = type(schema: schema, name: name) else {
      return nil
    }
    return space + "." + type
  }

  func qualifiedRelation(schema: String, name: String) -> String? {
    guard let space = schemas[schema], let relation = relation(schema: schema, name: name) else {
      return nil
    }
    return space + "." + relation
  }
}
