/// A table or view of an exposed schema, as the schema cache knows it.
struct TableInfo: Sendable {
  /// `r` table, `v` view, `m` materialized view, `f` foreign table, `p` partitioned table.
  enum Kind: String, Sendable {
    case table = "r", view = "v", materializedView = "m", foreignTable = "f"
    case partitionedTable = "p"
  }

  var name: QualifiedName
  var kind: Kind
  var comment: String?
  var insertable: Bool
  var updatable: Bool
  var deletable: Bool
  var columns: [ColumnInfo]
  var primaryKey: [String]
  /// Sets of columns with a unique constraint or index (including the primary key).
  var uniqueKeys: [[String]] = []
  /// `pg_class.oid`, which views' column origins name (0 when unknown).
  var oid = 0
  /// Whether row-level security is enabled (`relrowsecurity`); true when unknown.
  var rowSecurity = true
  /// Whether row security is on and every policy reads nothing of the request but its claims
  /// (`ClaimsPolicies`).
  var claimsPolicies = false
  /// Whether some column has a domain representation (`ColumnInfo.representation`).
  var hasRepresentations = false
  /// Whether some column is formatted by a `domain AS json` cast, so `*` lists the columns.
  var hasOutputRepresentations = false
  private(set) var columnIndex: [String: Int] = [:]

  init(
    name: QualifiedName, kind: Kind, comment: String? = nil, insertable: Bool = true,
    updatable: Bool = true, deletable: Bool = true, columns: [ColumnInfo],
    primaryKey: [String] = [], uniqueKeys: [[String]] = [], oid: Int = 0
  ) {
    self.oid = oid
    self.name = name
    self.kind = kind
    self.comment = comment
    self.insertable = insertable
    self.updatable = updatable
    self.deletable = deletable
    self.columns = columns
    self.primaryKey = primaryKey
    self.uniqueKeys = uniqueKeys
    for (index, column) in columns.enumerated() { columnIndex[column.name] = index }
  }

  var isView: Bool { kind == .view || kind == .materializedView }

  /// The column named `name`, if the table has one.
  func column(_ name: String) -> ColumnInfo? {
    columnIndex[name].map { columns[$0] }
  }
}

/// A column of a table or view, or an output column of a function.
struct ColumnInfo: Sendable {
  var name: String
  /// `format_type(type, NULL)`: `integer`, `character varying`, `text[]`, `timestamp with time zone`.
  var type: String
  /// `format_type(type, typmod)`: `character varying(20)`; what a typed record needs.
  var fullType: String
  /// `pg_type.typcategory`: `S` string, `N` numeric, `B` boolean, `A` array, `U` user (json...).
  var category: String = "S"
  var isNullable: Bool = true
  var defaultExpression: String?
  var comment: String?
  var maxLength: Int?
  var enumValues: [String] = []
  /// The element type of an array column (`text` for `text[]`).
  var elementType: String?
  /// The casts of the column's domain to and from json and text, if it has any (only columns of
  /// tables and views: PostgREST applies none to a function's own output columns).
  var representation: ColumnRepresentation?

  init(
    name: String, type: String, fullType: String? = nil, category: String = "S",
    isNullable: Bool = true, defaultExpression: String? = nil, comment: String? = nil,
    maxLength: Int? = nil, enumValues: [String] = [], elementType: String? = nil
  ) {
    self.name = name
    self.type = type
    self.fullType = fullType ?? type
    self.category = category
    self.isNullable = isNullable
    self.defaultExpression = defaultExpression
    self.comment = comment
    self.maxLength = maxLength
    self.enumValues = enumValues
    self.elementType = elementType
  }

  var isTextSearchVector: Bool { type == "tsvector" }
  var isJSON: Bool { type == "json" || type == "jsonb" }
}
