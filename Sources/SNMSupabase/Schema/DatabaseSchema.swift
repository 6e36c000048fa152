import SNMNetwork

/// What the REST root's OpenAPI document says a project exposes: tables, views and functions.
///
/// ```swift
/// let schema = try DatabaseSchema(openAPI: try response.json())
/// schema.table(named: "user_info")?.columns.map(\.name)   // ["id", "name", "age", ...]
/// ```
/// The document is filtered by the requesting role's privileges, so an anon key sees what anon may
/// see. Hosted projects refuse it to anon keys (401/403); callers fall back to what they know.
public struct DatabaseSchema: Sendable, Equatable {
  /// Tables and views, in the document's order.
  public var tables: [TableSchema]
  /// Functions callable with `rpc`, in the document's order.
  public var functions: [FunctionSchema]

  public init(tables: [TableSchema] = [], functions: [FunctionSchema] = []) {
    self.tables = tables
    self.functions = functions
  }

  /// The table or view called `name` (exact, else case-insensitive).
  public func table(named name: String) -> TableSchema? {
    tables.first { $0.name == name } ?? tables.first { $0.name.lowercased() == name.lowercased() }
  }

  /// The function called `name`.
  public func function(named name: String) -> FunctionSchema? {
    functions.first { $0.name == name }
  }
}

/// A table or view: its columns in order and what may be done to it.
public struct TableSchema: Sendable, Equatable {
  public var name: String
  public var columns: [ColumnSchema]
  /// The table's comment, when it has one.
  public var description: String?
  /// Which of insert, update, delete the role may do (from the path's operations).
  public var canInsert: Bool = false
  public var canUpdate: Bool = false
  public var canDelete: Bool = false

  /// The column called `name`.
  public func column(named name: String) -> ColumnSchema? {
    columns.first { $0.name == name }
  }

  /// The primary key's columns, in column order.
  public var primaryKey: [String] { columns.filter(\.isPrimaryKey).map(\.name) }

  /// Whether the API offers the relation only for reading: PostgREST lists insert, update and
  /// delete for every table and updatable view, whatever the role may do, and none of them for a
  /// view that cannot be written (so an updatable view cannot be told from a table).
  public var isReadOnly: Bool { !canInsert && !canUpdate && !canDelete }
}

/// One column: its Postgres type and keys.
public struct ColumnSchema: Sendable, Equatable {
  public var name: String
  /// The Postgres type as the document names it (`uuid`, `text`, `integer`, `jsonb`, `text[]`, ...).
  public var type: String
  /// Whether the column is NOT NULL.
  public var isRequired: Bool = false
  public var isPrimaryKey: Bool = false
  /// The referenced `table.column` for a single-column foreign key.
  public var foreignKey: ForeignKey?
  /// The default expression, when the document gives one.
  public var defaultValue: String?
  /// The column's comment, without snm-irrelevant key notes.
  public var description: String?
  /// The longest text a `character varying(n)` or `character(n)` column holds.
  public var maxLength: Int?
  /// The labels of an enum type, in order.
  public var enumValues: [String] = []

  /// The type with its length when the document gives one: `character varying(20)`.
  public var typeWithLength: String {
    guard let maxLength, !type.contains("(") else { return type }
    return "\(type)(\(maxLength))"
  }

  /// A foreign key target.
  public struct ForeignKey: Sendable, Equatable {
    public var table: String
    public var column: String

    public init(table: String, column: String) {
      self.table = table
      self.column = column
    }
  }
}

/// A function callable with `rpc` (and `rpc get`): its arguments and whether it is VOLATILE.
public struct FunctionSchema: Sendable, Equatable {
  public var name: String
  /// Arguments in the document's order.
  public var arguments: [Argument]
  /// Whether the function is VOLATILE (PostgREST's OpenAPI lists no GET for it): `rpc get`
  /// still calls it, in a read-only transaction, where a write fails (405 25006).
  public var isVolatile: Bool
  public var description: String?

  /// One named argument.
  public struct Argument: Sendable, Equatable {
    public var name: String
    public var type: String
    public var isRequired: Bool
  }
}
