/// What `snm gen` reads from a project: the relations, enums, composite types and functions of the
/// chosen schemas, with the types of their columns resolved, from the catalog (local project) or
/// from PostgREST's OpenAPI document (a hosted project).
///
/// ```swift
/// let catalog = try DatabaseCatalog(catalogJSON: json, schemas: ["public"])
/// catalog.relations.map(\.name)   // ["profiles", "todos"]
/// ```
/// `limits` says what the source could not know (the OpenAPI document has no composite types,
/// defaults or function results); the generated file repeats it at the top.
public struct DatabaseCatalog: Sendable, Equatable {
  /// The schemas asked for, in the order given.
  public var schemas: [String]
  public var relations: [Relation]
  public var enums: [EnumType]
  public var composites: [CompositeType]
  public var functions: [Function]
  /// Where it came from: `the catalog of the local project at DIR`, `the OpenAPI document of URL`.
  public var source: String
  /// What the source cannot know, one sentence each.
  public var limits: [String] = []

  public init(
    schemas: [String], relations: [Relation] = [], enums: [EnumType] = [],
    composites: [CompositeType] = [], functions: [Function] = [], source: String
  ) {
    self.schemas = schemas
    self.relations = relations
    self.enums = enums
    self.composites = composites
    self.functions = functions
    self.source = source
  }

  /// A table, view, materialized view or foreign table.
  public struct Relation: Sendable, Equatable {
    public enum Kind: String, Sendable, Equatable {
      case table, view, materializedView, foreignTable
    }
    public var schema: String
    public var name: String
    public var kind: Kind
    public var comment: String?
    public var columns: [Column]
    /// Whether rows can be inserted (a table, or a view Postgres can write through).
    public var insertable: Bool
    public var updatable: Bool
    public var primaryKey: [String] = []
  }

  /// A column of a relation, or an attribute of a composite type, or a function's argument or
  /// result column.
  public struct Column: Sendable, Equatable {
    public var name: String
    public var type: TypeRef
    /// NULL may be read here (postgres-meta's `is_nullable`: not `NOT NULL`).
    public var nullable: Bool
    /// An insert may leave it out: a default, an identity or a generated column.
    public var hasDefault: Bool = false
    /// Never written by a client: `GENERATED ALWAYS AS (...)` or `GENERATED ALWAYS AS IDENTITY`.
    public var readOnly: Bool = false
    public var comment: String?
  }

  public struct EnumType: Sendable, Equatable {
    public var schema: String
    public var name: String
    public var labels: [String]
    public var comment: String?
  }

  public struct CompositeType: Sendable, Equatable {
    public var schema: String
    public var name: String
    public var attributes: [Column]
    public var comment: String?
  }

  /// A function PostgREST calls at `/rpc/NAME` with its arguments as a JSON object.
  public struct Function: Sendable, Equatable {
    /// What it answers.
    public enum Result: Sendable, Equatable {
      /// Nothing (`void`).
      case none
      /// One value, or a set of them (`setof`).
      case value(TypeRef, set: Bool)
      /// Rows of these columns (`returns table (...)`, OUT parameters).
      case rows([Column], set: Bool)
      /// Not known (the OpenAPI document does not say).
      case unknown
    }
    public var schema: String
    public var name: String
    /// The named arguments; `hasDefault` when the call may leave them out.
    public var arguments: [Column]
    public var result: Result
    public var comment: String?
  }
}
