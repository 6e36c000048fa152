import SNMGateway

/// snm's own PostgREST: answers `/rest/v1/*` for the router, running each request as one
/// transaction in the role of its JWT.
///
/// ```swift
/// let gateway = RESTGateway()
/// let router = Router(keys: keys, signer: signer, rest: gateway, restPool: pool, auth: auth, ...)
/// try gateway.reloadSchemaCache(database: pool)   // after migrations
/// ```
/// Requests are parsed (query string, `Prefer`, `Accept`, `Range`, profile headers), resolved
/// against the schema cache, turned into one SQL statement whose values are all bound
/// parameters, and answered with the JSON Postgres built. Never throws: every failure is a
/// PostgREST error response.
public final class RESTGateway: RESTHandling, Sendable {
  /// Gateway options; the defaults are Supabase's.
  public struct Settings: Sendable {
    /// Schemas exposed when the database sets no `pgrst.db_schemas`; the first is the default.
    public var schemas: [String]
    /// Rows a read returns at most (Supabase: 1000); `pgrst.db_max_rows` overrides it.
    public var maxRows: Int?
    /// Seconds one request's statements may run before the gateway cancels them (the
    /// backstop behind each role's `statement_timeout`; Supabase's API allows 60).
    public var requestDeadline: Double
    /// How many embedded resources a `select` may ask for, and how deep.
    var selectLimits = SelectLimits()
    /// How many shapes of reads the gateway keeps, and their bytes (`RequestShapeCache`).
    var shapeLimits = RequestShapeCache.Limits()

    public init(
      schemas: [String] = ["public"], maxRows: Int? = 1000, requestDeadline: Double = 60
    ) {
      self.schemas = schemas
      self.maxRows = maxRows
      self.requestDeadline = requestDeadline
    }
  }

  let settings: Settings
  let store: SchemaCacheStore
  /// How to write the rows of reads answered from their columns (`columnsRead`).
  let columnReads = ColumnReadCache()
  /// Reads of known shapes, straight to the database (`ShapedReads`).
  let shapes: RequestShapeCache

  public init(settings: Settings = Settings()) {
    self.settings = settings
    self.store = SchemaCacheStore(defaultSchemas: settings.schemas)
    self.shapes = RequestShapeCache(limits: settings.shapeLimits)
  }

  /// Loads the schema cache again (after migrations or any DDL). Throws `PGError`.
  public func reloadSchemaCache(database: PGPool) throws {
    try store.reload(database: database)
    // Prepared statements of idle connections may describe the old schema.
    database.drain()
    columnReads.removeAll()
    shapes.removeAll()
  }

  /// Loads the schema cache now, so the first request does not wait for it; failures are left
  /// for that request to report.
  public func warmUp(database: PGPool) {
    _ = try? store.current(database: database)
  }

  public func handle(_ request: HTTPRequest, auth: RequestAuth, database: PGPool) -> HTTPResponse {
    do {
      let (cache, version) = try store.current(database: database)
      do {
        return try respond(
          request, auth: auth, database: database, cache: cache, version: version)
      } catch let error where Self.suggestsStaleCache(error) {
        // DDL committed just before this request: its notification's reload may not be in yet.
        // Catching up costs one NOTIFY; a name that is simply unknown reloads nothing.
        guard let fresh = store.catchUp(since: version, database: database) else { throw error }
        return try respond(
          request, auth: auth, database: database, cache: fresh, version: nil)
      }
    } catch {
      return Self.errorResponse(error, auth: auth)
    }
  }

  /// The answer for any error a request raised.
  static func errorResponse(_ error: any Error, auth: RequestAuth) -> HTTPResponse {
    restError(error, auth: auth).response
  }

  static func restError(_ error: any Error, auth: RequestAuth) -> RESTError {
    if let error = error as? RESTError { return error }
    if let error = error as? PGError {
      switch error.kind {
      case .server:
        return RESTError.postgres(
          sqlState: error.sqlState ?? "XX000", message: error.message, detail: error.detail,
          hint: error.hint, authenticated: !auth.isAnonymous)
      case .poolTimeout:
        return RESTError(
          status: 504, code: "PGRST003",
          message: "Timed out acquiring connection from connection pool.")
      case .connection:
        return RESTError.connection(error.message)
      case .interrupted(let reason):
        return RESTError.cancelled(reason, message: error.message)
      case .client:
        if let sqlState = error.sqlState {
          return RESTError.postgres(
            sqlState: sqlState, message: error.message, detail: error.detail, hint: error.hint,
            authenticated: !auth.isAnonymous)
        }
        return RESTError(
          status: 503, code: "PGRST001",
          message: "Database client error. Retrying the connection.",
          details: .string(error.message))
      }
    }
    return RESTError(status: 500, code: "PGRSTX00", message: "\(error)")
  }

  /// Errors a schema change since the cache was loaded could explain.
  static func suggestsStaleCache(_ error: any Error) -> Bool {
    if let error = error as? RESTError {
      return ["PGRST200", "PGRST202", "PGRST204", "PGRST205", "42P01", "42703", "42883"]
        .contains(error.code)
    }
    if let error = error as? PGError, let state = error.sqlState {
      return ["42P01", "42703", "42883"].contains(state)
    }
    return false
  }
}
