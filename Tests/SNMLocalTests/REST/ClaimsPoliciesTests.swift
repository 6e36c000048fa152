import SNMWire
import Testing

@testable import SNMGateway
@testable import SNMLocal
@testable import SNMLocalREST

/// Reads under policies of claims code (`ClaimsPolicies`, `KnownCodeReads`): which prelude a
/// plain read sends, and its statement with the schema version's guard, without a database.
@Suite struct ClaimsPoliciesTests {
  static var dogs: TableInfo {
    var table = SQLGenerationTests.dogs
    table.rowSecurity = true
    table.claimsPolicies = true
    return table
  }

  static func cache(version: Int? = 42, table: TableInfo = dogs) -> SchemaCache {
    var cache = SchemaCache(
      schemas: ["public"], tables: [SQLGenerationTests.users, table])
    cache.readsMayRunDatabaseCode = false
    cache.rlsBypassers = ["service_role"]
    cache.roleSettings["authenticated"] = [("statement_timeout", "8s")]
    cache.schemaVersion = version
    return cache
  }

  static func plan(_ query: String, cache: SchemaCache) throws -> ReadPlan {
    let table = try #require(cache.tables[QualifiedName(schema: "public", name: "dogs")])
    var planner = ReadPlanner(cache: cache)
    return try planner.plan(
      try QueryParameters.parse(query), table: table, name: "dogs", source: .relation(table.name))
  }

  static func context(role: String, cache: SchemaCache) throws -> RESTGateway.Context {
    let request = HTTPRequest(method: "GET", target: "/rest/v1/dogs?select=*", headers: [:])
    let auth = RequestAuth(
      role: role, claims: .object([.init("role", .string(role))]), isAnonymous: false)
    return RESTGateway.Context(
      request: request, auth: auth,
      database: PGPool(conninfo: "host=/nonexistent dbname=none", size: 1), cache: cache,
      method: "GET", schema: "public", query: try QueryParameters.parse(request.query),
      preferences: try Preferences.parse([]), accepts: [], maxRows: nil)
  }

  /// The guard is the first condition of the root's WHERE, the rest and the parameters as
  /// written without it.
  @Test func aClaimsTablesReadCarriesTheGuardFirst() throws {
    let cache = Self.cache()
    for query in ["select=*&id=eq.4", "select=id,name&order=id&limit=3", "select=name"] {
      let plan = try Self.plan(query, cache: cache)
      var plain = SQLWriter()
      try plain.select(plan, cache: cache)
      let read = try #require(try KnownCodeReads.plainRead(plan, cache: cache))
      #expect(read.rowSecurity)
      let guardedSQL = try #require(read.guardedSQL)
      let condition = ClaimsPolicies.condition(version: 42)
      let from = " FROM \"public\".\"dogs\""
      let cut = try #require(plain.text.range(of: from)).upperBound
      let rest = String(plain.text[cut...])
      let expected =
        String(plain.text[..<cut]) + " WHERE " + condition
        + (rest.hasPrefix(" WHERE ") ? " AND " + rest.dropFirst(7) : rest)
      #expect(guardedSQL == expected)
    }
    #expect(
      ClaimsPolicies.condition(version: 42)
        == "(SELECT CASE WHEN (SELECT v.version FROM extensions.snm_schema_version v) "
        + "OPERATOR(pg_catalog.=) 42 THEN true ELSE extensions.snm_schema_changed() END)")
  }

  /// No guarded statement (so the whole prelude) without a schema version or when a policy may
  /// read more than the claims; none needed without row security.
  @Test func noGuardWithoutAVersionOrClaimsPolicies() throws {
    var other = Self.dogs
    other.claimsPolicies = false
    var open = Self.dogs
    open.rowSecurity = false
    for cache in [Self.cache(version: nil), Self.cache(table: other), Self.cache(table: open)] {
      let read = try KnownCodeReads.plainRead(
        try Self.plan("select=*&id=eq.4", cache: cache), cache: cache)
      #expect(read?.guardedSQL == nil)
    }
  }

  /// authenticated under claims policies: the claims' prelude; service_role (BYPASSRLS): known
  /// code's; a role's own search_path, pg_catalog named on the search path, a read with no
  /// guarded statement, a cache whose version a guard found stale: the whole prelude.
  @Test func whichPreludeARoleSends() throws {
    let cache = Self.cache()
    let read = try KnownCodeReads.plainRead(
      try Self.plan("select=*&id=eq.4", cache: cache), cache: cache)
    let guardedSQL = try #require(read?.guardedSQL)
    let signedIn = try Self.context(role: "authenticated", cache: cache)
    #expect(KnownCodeReads.prelude(read, signedIn) == .claims(guardedSQL: guardedSQL))
    #expect(
      KnownCodeReads.prelude(read, try Self.context(role: "service_role", cache: cache))
        == .knownCode)
    var unguarded = read
    unguarded?.guardedSQL = nil
    #expect(KnownCodeReads.prelude(unguarded, signedIn) == .whole)
    var ownPath = cache
    ownPath.roleSettings["authenticated"] = [("search_path", "public, pg_catalog")]
    #expect(
      KnownCodeReads.prelude(read, try Self.context(role: "authenticated", cache: ownPath))
        == .whole)
    var catalogLast = cache
    catalogLast.extraSearchPath = ["public", "pg_catalog"]
    #expect(
      KnownCodeReads.prelude(read, try Self.context(role: "authenticated", cache: catalogLast))
        == .whole)
    #expect(KnownCodeReads.prelude(nil, signedIn) == .whole)
    // Once a guard found the version moved on behind the cache: the whole prelude, until a
    // load makes a new cache (its own mark, unset).
    cache.staleVersion.note()
    #expect(KnownCodeReads.prelude(read, signedIn) == .whole)
    #expect(
      KnownCodeReads.prelude(read, try Self.context(role: "service_role", cache: cache))
        == .knownCode)
    let reloaded = Self.cache()
    #expect(
      KnownCodeReads.prelude(read, try Self.context(role: "authenticated", cache: reloaded))
        == .claims(guardedSQL: guardedSQL))
  }

  /// The claims' prelude: the role, the claims, search_path and the role's settings; not the
  /// request's method, path, headers and cookies, not read only, row security on.
  @Test func theClaimsPreludeSendsTheClaimsAndNotTheRequest() throws {
    let cache = Self.cache()
    let context = try Self.context(role: "authenticated", cache: cache)
    let prelude = RESTRequestRole.role(
      context, readOnly: true, prelude: .claims(guardedSQL: "SELECT")
    ).prelude
    #expect(
      prelude.sql
        == RequestRolePreludeTests.head + " AND set_config('search_path', $3, true) IS NOT NULL"
        + " AND set_config($4, $5, true) IS NOT NULL")
    #expect(
      prelude.parameters == [
        "authenticated", #"{"role":"authenticated"}"#, #""public", "public", "extensions""#,
        "statement_timeout", "8s",
      ])
  }

  /// A guarded read that fails goes again with the whole prelude, but not one cancelled for its
  /// time; known code's only when row security refused it.
  @Test func whichFailuresGoAgain() {
    let changed = PGError(
      kind: .server, sqlState: ClaimsPolicies.schemaChanged,
      message: "the schema changed after the REST gateway read it")
    let timeout = PGError(kind: .server, sqlState: "57014", message: "canceling statement")
    let claims = KnownCodeReads.Prelude.claims(guardedSQL: "SELECT")
    #expect(KnownCodeReads.goesAgain(after: changed, claims))
    #expect(!KnownCodeReads.goesAgain(after: timeout, claims))
    #expect(!KnownCodeReads.goesAgain(after: changed, .knownCode))
    #expect(!KnownCodeReads.goesAgain(after: changed, .whole))
  }
}
