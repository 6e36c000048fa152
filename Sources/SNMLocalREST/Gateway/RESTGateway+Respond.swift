import SNMGateway
import SNMWire

/// Routing a request to a read, a write, a call or the OpenAPI document.
extension RESTGateway {
  /// What every handler needs about the request, parsed once.
  struct Context {
    var request: HTTPRequest
    var auth: RequestAuth
    var database: PGPool
    var cache: SchemaCache
    var method: String
    var schema: String
    var query: QueryParameters
    var preferences: Preferences
    /// The `Accept` header's media types, most preferred first.
    var accepts: [MediaType]
    /// The negotiated media type (`negotiate(target:)`); JSON until then.
    var media: MediaType = .json
    /// What builds the body: the negotiated handler, `.none` for HEAD and for writes that
    /// return nothing.
    var handler: MediaHandler = .jsonArray(stripNulls: false)
    var maxRows: Int?

    var isHead: Bool { method == "HEAD" }
    var isRead: Bool { method == "GET" || method == "HEAD" }

    /// The shape of the body: none for HEAD.
    var shape: ResultShape { isHead ? .none : handler.shape }

    /// Chooses the media type and handler for rows coming from `target` (406 PGRST107 when the
    /// `Accept` header names nothing it produces).
    mutating func negotiate(target: QualifiedName) throws(RESTError) {
      let resolved = try cache.negotiate(
        accepts, target: target, defaultSelect: query.hasDefaultSelect)
      media = resolved.media
      let writes = !isRead && !isCall
      handler =
        isHead || (writes && !preferences.returnRepresentation) ? .none : resolved.handler
    }

    /// Whether the request calls a function (`/rpc/...`).
    var isCall = false
    /// The called function's hoisted settings (`RoutineInfo.settings`), set after the role's.
    var functionSettings: [(name: String, value: String)] = []
    /// The request's shape when none is known yet under this schema cache `version`: a read
    /// answered from its columns is then kept by it (`ShapedReads.learn`).
    var requestShape: (shape: RequestShape, version: Int)?
    /// A table read's `Content-Location` (`CanonicalQuery`), on its answers and its 416.
    var location: String?

    /// Headers every successful answer carries.
    func baseHeaders(contentType: Bool = true) -> HTTPHeaders {
      var headers = HTTPHeaders()
      // Room for these, the page's Content-Range and Content-Location and the gateway's CORS
      // fields, so that none makes the fields grow.
      headers.reserveCapacity(8)
      if contentType { headers.append(name: "Content-Type", value: media.contentType) }
      if cache.schemas.count > 1 { headers.append(name: "Content-Profile", value: schema) }
      if let applied = preferences.applied() {
        headers.append(name: "Preference-Applied", value: applied)
      }
      return headers
    }
  }

  /// A request parsed: the OpenAPI document's, a call's or a table's, with its context.
  enum Prepared {
    case root(schema: String)
    case routine(QualifiedName, Context)
    case relation(TableInfo, Context)
  }

  /// `version` is the schema cache's (nil after catching up: such a request learns no shape).
  func respond(
    _ request: HTTPRequest, auth: RequestAuth, database: PGPool, cache: SchemaCache, version: Int?
  ) throws -> HTTPResponse {
    var shape: (shape: RequestShape, version: Int)?
    if let version, request.method == "GET", let known = RequestShape(request, role: auth.role) {
      switch shapes.lookup(known.key, version: version) {
      case .read(let read):
        if let answer = try ShapedReads(gateway: self).answer(
          read, shape: known, request, auth: auth, database: database, cache: cache)
        {
          return answer
        }
      case .miss: shape = (known, version)
      case .usual: break
      }
    }
    switch try prepare(request, auth: auth, database: database, cache: cache, shape: shape) {
    case .root(let schema):
      return try openAPIResponse(
        request, auth: auth, database: database, cache: cache, schema: schema)
    case .routine(let name, let context):
      return try call(name, context)
    case .relation(let table, let context):
      switch context.method {
      case "GET", "HEAD": return try read(table, context)
      case "POST": return try insert(table, context)
      case "PATCH": return try update(table, context)
      case "DELETE": return try delete(table, context)
      case "PUT": return try put(table, context)
      default: throw RESTError.unsupportedMethod(context.method)
      }
    }
  }

  /// Parses the request: its resource, schema, media types, query string and preferences
  /// (`shape`: the request's new shape, for a read to learn).
  func prepare(
    _ request: HTTPRequest, auth: RequestAuth, database: PGPool, cache: SchemaCache,
    shape: (shape: RequestShape, version: Int)? = nil
  ) throws -> Prepared {
    let method = request.method.uppercased()
    let resource = try RESTResource.parse(path: request.path)
    let isRead = method == "GET" || method == "HEAD"
    let schema = try Self.schema(
      profile: isRead ? request.headers["Accept-Profile"] : request.headers["Content-Profile"],
      cache: cache)
    let accepts = MediaType.accepted(request.headers["Accept"])
    if resource == .root {
      guard isRead else { throw RESTError.unsupportedMethod(method) }
      try SchemaCache.negotiateRoot(accepts)
      return .root(schema: schema)
    }
    let query = try QueryParameters.parse(request.query)
    try settings.selectLimits.check(query.select)
    var context = Context(
      request: request, auth: auth, database: database, cache: cache, method: method,
      schema: schema, query: query,
      preferences: try Preferences.parse(
        request.headers.values(for: "Prefer"), timezones: cache.timezoneNames),
      accepts: accepts, maxRows: cache.configuredMaxRows ?? settings.maxRows)
    context.requestShape = shape
    switch resource {
    case .root:
      throw RESTError.invalidResourcePath
    case .routine(let name):
      context.isCall = true
      return .routine(QualifiedName(schema: schema, name: name), context)
    case .relation(let name):
      let table = try cache.table(QualifiedName(schema: schema, name: name))
      try Self.refuseNonFilters(context.query)
      try context.negotiate(target: table.name)
      if isRead { context.location = CanonicalQuery.location(table: name, query: request.query) }
      switch method {
      case "GET", "HEAD", "POST", "PATCH", "DELETE", "PUT": break
      default: throw RESTError.unsupportedMethod(method)
      }
      return .relation(table, context)
    }
  }

  /// A table request's parameters must all be filters or reserved words: PostgREST silently
  /// ignores the others (`age=noop.1`), which would let a typo turn a DELETE into "delete all".
  /// snm answers 400 PGRST100 instead, as PostgREST does for an embedded `a.b=noop.1`.
  static func refuseNonFilters(_ query: QueryParameters) throws(RESTError) {
    for argument in query.arguments where argument.name != "apikey" {
      if argument.value.utf8.contains(UInt8(ascii: ".")) {
        _ = try FilterParser.parse(argument.value)
      }
      // No operator at all (`id=0`): Parsec's words at column 1.
      let cursor = ParseCursor(argument.value, what: "filter")
      throw cursor.failure(expecting: "\"not\" or operator (eq, gt, ...)")
    }
  }

  /// The schema a profile header selects, or the default; 406 PGRST106 for one not exposed.
  static func schema(profile: String?, cache: SchemaCache) throws(RESTError) -> String {
    guard let profile = profile?.trimmingCharacters(in: " \t"), !profile.isEmpty else {
      return cache.schemas.first ?? "public"
    }
    guard cache.schemas.contains(profile) else {
      throw RESTError.unacceptableSchema(profile, exposed: cache.schemas)
    }
    return profile
  }

  /// Runs statements in one transaction as the request's role, in one round trip.
  ///
  /// The role and claims are set by the role's prelude (`RequestRole.prelude`, prepared)
  /// pipelined with the request's own (prepared) statements; the pipeline's single sync makes
  /// them one implicit transaction, committed when all succeed. When `check` must see the first
  /// result before the commit (a singular answer, `max-affected`), the transaction is explicit and
  /// `check` may throw to roll it back.
  /// `plainRead`: the statements are a plain read and the settings read after it; one of known
  /// code may send less (`KnownCodeReads.swift`), with row security off: when a policy applies
  /// after all, Postgres refuses it and it is sent again as any other. One under policies of
  /// claims code sends the claims too and its guarded statement, and is sent again as any other
  /// when its guard finds the schema changed since the schema cache read it (`ClaimsPolicies`).
  func run(
    _ statements: [PGStatement], _ context: Context, readOnly: Bool,
    check: ((ResultRow) throws -> Void)? = nil, plainRead: KnownCodeReads.PlainRead? = nil
  ) throws -> [PGResult] {
    var prelude = KnownCodeReads.prelude(plainRead, context)
    if check != nil, case .claims = prelude { prelude = .whole }
    if prelude != .whole {
      do {
        return try run(statements, context, readOnly: readOnly, check: check, prelude: prelude)
      } catch let error as PGError where KnownCodeReads.goesAgain(after: error, prelude) {
        // A policy the schema cache did not know of applies (a role lost BYPASSRLS, a table's
        // row security was just turned on, the schema changed behind the cache): the read goes
        // again with everything it may read. A schema changed behind the cache stays changed
        // until the next reload: later reads send everything from the first try.
        if error.sqlState == ClaimsPolicies.schemaChanged { context.cache.staleVersion.note() }
      }
    }
    return try run(statements, context, readOnly: readOnly, check: check, prelude: .whole)
  }

  private func run(
    _ statements: [PGStatement], _ context: Context, readOnly: Bool,
    check: ((ResultRow) throws -> Void)?, prelude: KnownCodeReads.Prelude
  ) throws -> [PGResult] {
    let role = RESTRequestRole.role(context, readOnly: readOnly, prelude: prelude)
    let preRequest = RESTRequestRole.preRequest(context.cache)
    try Self.refuseNUL(statements)
    let body = statements.map { statement in
      var prepared = statement
      prepared.prepared = true
      return prepared
    }
    // Cancelled when the client hangs up or the request's deadline passes, so a hung-up client
    // cannot keep a pooled connection (and its backend) busy.
    let interrupt = PGInterrupt(
      deadline: monotonicSeconds() + settings.requestDeadline,
      watchedSocket: context.request.peer?.socket)
    // `Prefer: tx=rollback` is not honoured: Supabase's PostgREST runs with db-tx-end = commit.
    guard let check else {
      return try context.database.transaction(
        as: role, begin: nil, then: preRequest, interrupt: interrupt
      ) { tx in try KnownCodeReads.pipeline(body, tx, prelude: prelude) }
    }
    return try context.database.transaction(as: role, then: preRequest, interrupt: interrupt) {
      tx in
      let results = try tx.pipeline(body)
      try check(ResultRow(results[0]))
      try tx.commit()
      return results
    }
  }

  /// 400 22021 for SQL text holding a NUL byte (from a name in the request), which libpq cannot
  /// send.
  static func refuseNUL(_ statements: [PGStatement]) throws(RESTError) {
    if statements.contains(where: { $0.sql.containsNUL }) {
      throw RESTError(
        status: 400, code: "22021", message: "invalid byte sequence for encoding \"UTF8\": 0x00")
    }
  }
}
