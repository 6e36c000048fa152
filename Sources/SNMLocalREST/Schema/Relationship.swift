import SNMWire

/// A relationship between two tables found from foreign keys, as PostgREST derives them
/// (SchemaCache.hs `allM2OandO2ORels`, `addM2MRels`, `addInverseRels`).
struct Relationship: Sendable {
  /// Column pairs: (column of `table`, column of `foreignTable`).
  typealias ColumnPairs = [(String, String)]

  /// A junction table for a many-to-many relationship.
  struct Junction: Sendable {
    var table: QualifiedName
    /// The foreign key from the junction to `table`, and the one to `foreignTable`.
    var sourceConstraint: String
    var targetConstraint: String
    /// (column of `table`, column of the junction)
    var sourceColumns: ColumnPairs
    /// (column of `foreignTable`, column of the junction)
    var targetColumns: ColumnPairs
  }

  enum Cardinality: Sendable {
    case manyToOne(constraint: String, columns: ColumnPairs)
    case oneToMany(constraint: String, columns: ColumnPairs)
    case oneToOne(constraint: String, columns: ColumnPairs)
    case manyToMany(Junction)
    /// A computed relationship: `function(table) RETURNS [SETOF] foreignTable`, embedded as
    /// `select=*,function(*)`; to-one unless it returns a set of more than one row (`ROWS 1`).
    case computed(function: QualifiedName, toOne: Bool)
  }

  var table: QualifiedName
  var foreignTable: QualifiedName
  var cardinality: Cardinality
  var foreignTableIsView = false

  var isSelf: Bool { table == foreignTable }

  /// Whether the embed is one object (many-to-one, one-to-one) rather than an array.
  var isToOne: Bool {
    switch cardinality {
    case .manyToOne, .oneToOne: true
    case .oneToMany, .manyToMany: false
    case .computed(_, let toOne): toOne
    }
  }

  var constraint: String? {
    switch cardinality {
    case .manyToOne(let name, _), .oneToMany(let name, _), .oneToOne(let name, _): name
    case .manyToMany, .computed: nil
    }
  }

  var columnPairs: ColumnPairs? {
    switch cardinality {
    case .manyToOne(_, let pairs), .oneToMany(_, let pairs), .oneToOne(_, let pairs): pairs
    case .manyToMany, .computed: nil
    }
  }

  /// The single (own, foreign) column pair of a one-column foreign key.
  var singleColumnPair: (String, String)? {
    guard let pairs = columnPairs, pairs.count == 1 else { return nil }
    return pairs[0]
  }

  /// PostgREST's description in an ambiguity error (`details` of PGRST201).
  var ambiguityDescription: JSONValue {
    func list(_ names: [String]) -> String { "(" + names.joined(separator: ", ") + ")" }
    var members: [JSONObject.Member] = [
      .init("embedding", .string("\(table.name) with \(foreignTable.name)"))
    ]
    switch cardinality {
    case .computed:
      // PostgREST's `compressedRel` gives an empty object: a computed relationship is never
      // ambiguous (its function name is unique for the table).
      return .object([])
    case .manyToMany(let junction):
      members.append(.init("cardinality", .string("many-to-many")))
      members.append(
        .init(
          "relationship",
          .string(
            "\(junction.table.name) using \(junction.sourceConstraint)"
              + list(junction.sourceColumns.map(\.1)) + " and \(junction.targetConstraint)"
              + list(junction.targetColumns.map(\.1)))
        ))
    case .manyToOne(let name, let pairs), .oneToMany(let name, let pairs),
      .oneToOne(let name, let pairs):
      let kind =
        switch cardinality {
        case .manyToOne: "many-to-one"
        case .oneToMany: "one-to-many"
        default: "one-to-one"
        }
      members.append(.init("cardinality", .string(kind)))
      members.append(
        .init(
          "relationship",
          .string(
            "\(name) using \(table.name)\(list(pairs.map(\.0))) and "
              + "\(foreignTable.name)\(list(pairs.map(\.1)))")
        ))
    }
    return .object(members)
  }

  /// PostgREST's order of relationships (the derived `Ord` of its `Relationship`): by origin,
  /// target, self or not, then one-to-many, many-to-one, one-to-one, many-to-many, then by
  /// constraint (or junction) and columns. Ambiguity errors list candidates in this order.
  static func precedes(_ a: Relationship, _ b: Relationship) -> Bool {
    func key(_ r: Relationship) -> [String] {
      let rank: String
      var rest: [String] = []
      switch r.cardinality {
      case .oneToMany(let name, let pairs):
        rank = "0"
        rest = [name] + pairs.flatMap { [$0.0, $0.1] }
      case .manyToOne(let name, let pairs):
        rank = "1"
        rest = [name] + pairs.flatMap { [$0.0, $0.1] }
      case .oneToOne(let name, let pairs):
        rank = "2"
        rest = [name] + pairs.flatMap { [$0.0, $0.1] }
      case .computed(let function, _):
        rank = "4"
        rest = [function.schema, function.name]
      case .manyToMany(let junction):
        rank = "3"
        rest = [
          junction.table.schema, junction.table.name, junction.sourceConstraint,
          junction.targetConstraint,
        ]
      }
      return [
        r.table.schema, r.table.name, r.foreignTable.schema, r.foreignTable.name,
        r.isSelf ? "1" : "0", rank,
      ] + rest
    }
    return key(a).lexicographicallyPrecedes(key(b))
  }

  /// The `rel!hint` PostgREST suggests for this relationship.
  var hintName: String {
    switch cardinality {
    case .manyToMany(let junction): "'\(foreignTable.name)!\(junction.table.name)'"
    case .computed: ""
    default: "'\(foreignTable.name)!\(constraint ?? "")'"
    }
  }
}
