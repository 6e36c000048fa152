import SNMGateway

/// What the REST gateway knows about the database: tables and views with their columns and keys,
/// relationships between them, functions, and the type names a `::cast` may use.
///
/// Built by `SchemaIntrospection` at gateway start and again on demand (after migrations);
/// immutable once built, so requests share it without locks.
struct SchemaCache: Sendable {
  /// The schemas the API exposes; the first is the default (`public`).
  var schemas: [String] {
    didSet { defaultSearchPath = Self.defaultSearchPath(schemas, tail: searchPathTail) }
  }
  var tables: [QualifiedName: TableInfo]
  /// Relationships keyed by their origin table.
  var relationships: [QualifiedName: [Relationship]]
  var routines: [QualifiedName: [RoutineInfo]]
  /// Cast names (lowercased: `int`, `integer`, `int4`, `text`) to SQL type text
  /// (`"pg_catalog"."int4"`).
  var castTypes: [String: String]
  /// `pgrst.db_max_rows` set on the connecting role, if any.
  var configuredMaxRows: Int?
  /// `pgrst.db_aggregates_enabled` (PostgREST's db-aggregates-enabled): `sum()`, `count()`, ...
  /// in `select`; off by default, as on Supabase.
  var aggregatesEnabled = false
  /// Each role's own settings (`ALTER ROLE anon SET statement_timeout = '3s'`), in the order to
  /// apply them: a request as that role sets them for its transaction, as PostgREST does.
  var roleSettings: [String: [(name: String, value: String)]] = [:]
  /// The time zone names `Prefer: timezone=` may give (`pg_timezone_names`, as written); nil
  /// before a load: any name.
  var timezoneNames: Set<String>?
  /// Media type handlers: PostgREST's built-in ones, overridden by the database's.
  var mediaHandlers: [MediaHandlerKey: ResolvedHandler] = SchemaCache.builtinMediaHandlers
  /// `pgrst.db_pre_request`: a function run before each request's statement.
  var preRequest: QualifiedName?
  /// `pgrst.db_extra_search_path`: schemas after the request's own on its `search_path`
  /// (Supabase's PostgREST: `public, extensions`).
  var extraSearchPath: [String] = ["public", "extensions"] {
    didSet {
      searchPathTail = Self.searchPathTail(extraSearchPath)
      defaultSearchPath = Self.defaultSearchPath(schemas, tail: searchPathTail)
      searchPathNamesCatalog = extraSearchPath.contains("pg_catalog")
    }
  }
  /// Whether `extraSearchPath` names `pg_catalog`, which is then not searched first.
  private(set) var searchPathNamesCatalog = false
  /// The schema version the cache was read at (`extensions.snm_schema_version`, in the same
  /// snapshot as the catalog); nil when the database does not keep one (`ClaimsPolicies`).
  var schemaVersion: Int?
  /// Set when a read's guard found the schema version moved on since this cache was read: reads
  /// under claims policies then send the whole prelude until the next load, whose cache has a
  /// mark of its own (`ClaimsPolicies.StaleVersion`).
  let staleVersion = ClaimsPolicies.StaleVersion()
  /// `extraSearchPath` as it follows the request's schema on `search_path` (`, "public", ...`),
  /// quoted once here rather than for every request.
  private(set) var searchPathTail = SchemaCache.searchPathTail(["public", "extensions"])
  /// The default schema and its request's whole `search_path` (`searchPath(_:)`), written once.
  private(set) var defaultSearchPath: (schema: String, path: String)?
  /// `pgrst.db_plan_enabled`: whether `application/vnd.pgrst.plan` answers are served.
  var planEnabled = false
  /// The roles no row-level security policy applies to (`BYPASSRLS`, superusers).
  var rlsBypassers: Set<String> = []
  /// Whether a read of a table's own columns might run a function written in the database, or
  /// see a `response.*` setting its session was given (`KnownCodeReads.swift`); true
  /// until a load says otherwise.
  var readsMayRunDatabaseCode = true

  init(
    schemas: [String], tables: [TableInfo], relationships: [Relationship] = [],
    routines: [RoutineInfo] = [], castTypes: [String: String] = [:], configuredMaxRows: Int? = nil
  ) {
    self.schemas = schemas
    self.configuredMaxRows = configuredMaxRows
    self.tables = Dictionary(tables.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
    self.relationships = Dictionary(grouping: relationships, by: \.table)
    self.routines = Dictionary(grouping: routines, by: \.name)
    self.castTypes = castTypes
    defaultSearchPath = Self.defaultSearchPath(schemas, tail: searchPathTail)
  }

  /// The `search_path` of a request in `schema`: the schema, then `extraSearchPath`; the
  /// default schema's made once (most requests name no profile).
  func searchPath(_ schema: String) -> String {
    if let known = defaultSearchPath, known.schema == schema { return known.path }
    return SQLText.identifier(schema) + searchPathTail
  }

  static func defaultSearchPath(_ schemas: [String], tail: String) -> (
    schema: String, path: String
  )? {
    schemas.first.map { ($0, SQLText.identifier($0) + tail) }
  }

  /// The table or view `schema.name`.
  ///
  /// Throws 404 PGRST205 "Could not find the table 'public.x' in the schema cache", with a hint
  /// naming the closest table of the schema as PostgREST 13 finds it (`tableNotFoundHint`:
  /// FuzzySet's `getOne`, a score of 0.33 at least, over every table of the schema; the 0.75 and
  /// the 500-table limit came in PostgREST 16).
  func table(_ name: QualifiedName) throws(RESTError) -> TableInfo {
    if let table = tables[name] { return table }
    let names = tables.keys.filter { $0.schema == name.schema }.map(\.name).sorted()
    let suggestion = FuzzyMatch.best(name.name, among: names, minimum: 0.33)
    throw RESTError(
      status: 404, code: "PGRST205",
      message: "Could not find the table '\(name)' in the schema cache",
      hint: .optional(suggestion.map { "Perhaps you meant the table '\(name.schema).\($0)'" }))
  }

  /// The SQL type text for a `::cast`, or 400 42704 as Postgres would say it.
  func castType(_ name: String) throws(RESTError) -> String {
    let key = name.lowercased().split(separator: " ").joined(separator: " ")
    if let sql = castTypes[key] { return sql }
    throw RESTError(status: 400, code: "42704", message: "type \"\(name)\" does not exist")
  }

  /// The column of a table that a request names in `columns=` or a body key.
  ///
  /// Throws 400 PGRST204 "Could not find the 'x' column of 't' in the schema cache".
  func column(_ name: String, of table: TableInfo) throws(RESTError) -> ColumnInfo {
    if let column = table.column(name) { return column }
    throw RESTError(
      status: 400, code: "PGRST204",
      message: "Could not find the '\(name)' column of '\(table.name.name)' in the schema cache")
  }

  /// PostgREST's initial handlers (`initialMediaHandlers`): JSON for `application/json` and
  /// `*/*`, CSV for `text/csv`, over any relation.
  static let builtinMediaHandlers: [MediaHandlerKey: ResolvedHandler] = [
    MediaHandlerKey(target: nil, media: .any): ResolvedHandler(
      handler: .jsonArray(stripNulls: false), media: .json),
    MediaHandlerKey(target: nil, media: .json): ResolvedHandler(
      handler: .jsonArray(stripNulls: false), media: .json),
    MediaHandlerKey(target: nil, media: .csv): ResolvedHandler(handler: .csv, media: .csv),
    MediaHandlerKey(target: nil, media: .geoJSON): ResolvedHandler(
      handler: .geoJSON, media: .geoJSON),
  ]

  /// `, "a", "b"` for `["a", "b"]`; empty for none.
  static func searchPathTail(_ schemas: [String]) -> String {
    schemas.map { ", " + SQLText.identifier($0) }.joined()
  }
}
