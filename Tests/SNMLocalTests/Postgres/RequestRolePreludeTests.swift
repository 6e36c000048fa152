import SNMWire
import Testing

@testable import SNMGateway
@testable import SNMLocal
@testable import SNMLocalREST
@testable import SNMLocalStorage

/// The one prelude builder: the exact SQL and parameters each service sends to run as the
/// request's role: the calls as the conditions of a `SELECT` of no columns, in a fixed order.
@Suite struct RequestRolePreludeTests {
  static let head =
    "SELECT WHERE set_config('role', $1, true) IS NOT NULL AND set_config('request.jwt.claims', $2, true) IS NOT NULL"
  static let request =
    head
    + " AND set_config('search_path', $3, true) IS NOT NULL AND set_config('request.method', $4, true) IS NOT NULL"
    + " AND set_config('request.path', $5, true) IS NOT NULL AND set_config('request.headers', $6, true) IS NOT NULL"
    + " AND set_config('request.cookies', $7, true) IS NOT NULL"
  static let readOnly = " AND set_config('transaction_read_only', 'on', true) IS NOT NULL"

  /// A REST request's role: claims, search_path, method, path, headers and cookies.
  func restRole(readOnly: Bool) -> RequestRole {
    var role = RequestRole(
      role: "authenticated", claims: #"{"role":"authenticated"}"#, readOnly: readOnly)
    role.searchPath = "\"public\""
    role.method = "GET"
    role.path = "/dogs"
    role.headers = #"{"accept":"*/*"}"#
    role.cookies = "{}"
    return role
  }

  @Test func aRESTReadAndWriteSendTheSameStatementsAsBefore() {
    let read = restRole(readOnly: true).prelude
    #expect(read.sql == Self.request + Self.readOnly)
    #expect(
      read.parameters == [
        "authenticated", #"{"role":"authenticated"}"#, "\"public\"", "GET", "/dogs",
        #"{"accept":"*/*"}"#, "{}",
      ])
    #expect(read.prepared && read.form == .discarded)
    let write = restRole(readOnly: false).prelude
    #expect(write.sql == Self.request)
    #expect(write.parameters == read.parameters)
    #expect(write.prepared && write.form == .discarded)
    // The common shapes are written once, and are what the general writer writes.
    #expect(
      RequestRole.readRequestSQL
        == RequestRole.preludeSQL(shape: RequestRole.requestShape, settings: 0, readOnly: true))
  }

  /// A read of known code (KnownCodeReads.swift): the role and search_path only, with row
  /// security off, so that a policy the schema cache did not know of fails the read instead of
  /// running without the claims.
  @Test func aKnownCodeReadSetsTheRoleAndSearchPathOnly() {
    var role = RequestRole(role: "service_role")
    role.searchPath = "\"public\""
    role.rowSecurityOff = true
    let prelude = role.prelude
    #expect(
      prelude.sql
        == "SELECT WHERE set_config('role', $1, true) IS NOT NULL"
        + " AND set_config('search_path', $2, true) IS NOT NULL"
        + " AND set_config('row_security', 'off', true) IS NOT NULL")
    #expect(prelude.parameters == ["service_role", "\"public\""])
    #expect(prelude.sql == RequestRole.searchPathSQL)
    #expect(
      RequestRole.searchPathSQL
        == RequestRole.preludeSQL(
          shape: RequestRole.searchPathShape, settings: 0, readOnly: false, rowSecurityOff: true))
    // Without it, the same fields are the general prelude's, which leaves row security on.
    role.rowSecurityOff = false
    #expect(
      role.prelude.sql
        == "SELECT WHERE set_config('role', $1, true) IS NOT NULL"
        + " AND set_config('search_path', $2, true) IS NOT NULL")
  }

  /// What REST puts in a request's role, in the order the gateway sent it before.
  @Test func aRESTRequestsRoleCarriesTheRequest() throws {
    var cache = SQLGenerationTests.cache
    cache.roleSettings["authenticated"] = [("statement_timeout", "8s")]
    let request = HTTPRequest(
      method: "GET", target: "/rest/v1/users?select=name",
      headers: ["Accept": "*/*", "Cookie": "a=1", "Prefer": "timezone=Asia/Seoul"])
    let auth = RequestAuth(
      role: "authenticated", claims: .object([.init("role", .string("authenticated"))]),
      isAnonymous: false)
    var context = RESTGateway.Context(
      request: request, auth: auth,
      database: PGPool(conninfo: "host=/nonexistent dbname=none", size: 1), cache: cache,
      method: "GET", schema: "public", query: try QueryParameters.parse(request.query),
      preferences: try Preferences.parse(request.headers.values(for: "Prefer")), accepts: [],
      maxRows: nil)
    context.functionSettings = [("search_path", "x")]
    let prelude = RESTRequestRole.role(context, readOnly: true).prelude
    #expect(
      prelude.sql
        == Self.request
        + " AND set_config('timezone', $8, true) IS NOT NULL AND set_config($9, $10, true) IS NOT NULL"
        + " AND set_config($11, $12, true) IS NOT NULL" + Self.readOnly)
    #expect(
      prelude.parameters == [
        "authenticated", #"{"role":"authenticated"}"#, #""public", "public", "extensions""#,
        "GET", "/users", #"{"accept":"*/*","prefer":"timezone=Asia/Seoul"}"#, #"{"a":"1"}"#,
        "Asia/Seoul", "statement_timeout", "8s", "search_path", "x",
      ])
    #expect(RESTRequestRole.prelude(context, readOnly: true) == [prelude])
  }

  @Test func aRESTRequestWithTimezoneAndRoleSettings() {
    var role = restRole(readOnly: true)
    role.timezone = "Asia/Seoul"
    role.settings = [.init("statement_timeout", "1s"), .init("app.mode", "x")]
    let prelude = role.prelude
    #expect(
      prelude.sql
        == Self.request
        + " AND set_config('timezone', $8, true) IS NOT NULL AND set_config($9, $10, true) IS NOT NULL"
        + " AND set_config($11, $12, true) IS NOT NULL" + Self.readOnly)
    #expect(
      Array(prelude.parameters.suffix(5)) == [
        "Asia/Seoul", "statement_timeout", "1s", "app.mode", "x",
      ])
    var written = restRole(readOnly: false)
    written.settings = [.init("statement_timeout", "1s")]
    #expect(written.prelude.sql == Self.request + " AND set_config($8, $9, true) IS NOT NULL")
  }

  /// A role with settings of its own (snm local's anon and authenticated have a
  /// `statement_timeout`) has its prelude's SQL written once per shape, not at every request:
  /// the second request's text is the first's own storage.
  @Test func aRolesPreludeWithSettingsIsWrittenOnce() {
    var role = restRole(readOnly: true)
    role.settings = [.init("statement_timeout", "8s")]
    let first = role.prelude.sql
    role.headers = #"{"accept":"text/csv"}"#
    let second = role.prelude.sql
    #expect(first == Self.request + " AND set_config($8, $9, true) IS NOT NULL" + Self.readOnly)
    func storage(_ text: String) -> UnsafeRawPointer? {
      text.utf8.withContiguousStorageIfAvailable { UnsafeRawPointer($0.baseAddress) } ?? nil
    }
    #expect(storage(first) != nil && storage(first) == storage(second))
    role.readOnly = false
    #expect(role.prelude.sql == Self.request + " AND set_config($8, $9, true) IS NOT NULL")
  }

  @Test func theOpenAPIDocumentsRole() {
    let role = RequestRole(role: "anon", claims: #"{"role":"anon"}"#, readOnly: true)
    #expect(role.prelude.sql == Self.head + Self.readOnly)
    #expect(role.prelude.parameters == ["anon", #"{"role":"anon"}"#])
    let opening = PGPool.opening(as: role, begin: nil, then: [])
    #expect(opening == [role.prelude], "one round trip: no begin before REST's prelude")
  }

  @Test func aStorageTransaction() {
    let auth = RequestAuth(
      role: "authenticated",
      claims: .object([.init("sub", .string("u-1")), .init("role", .string("authenticated"))]),
      isAnonymous: false)
    let role = StorageGateway.requestRole(auth, .listBuckets)
    let opening = PGPool.opening(as: role, begin: "begin", then: [])
    #expect(
      opening.map(\.sql) == [
        "begin",
        Self.head
          + " AND set_config($3, $4, true) IS NOT NULL AND set_config($5, $6, true) IS NOT NULL"
          + " AND set_config($7, $8, true) IS NOT NULL AND set_config($9, $10, true) IS NOT NULL",
      ])
    #expect(
      opening[1].parameters == [
        "authenticated", #"{"sub":"u-1","role":"authenticated"}"#,
        "request.jwt.claim.role", "authenticated", "request.jwt.claim.sub", "u-1",
        "storage.operation", "storage.bucket.list", "storage.allow_delete_query", "true",
      ])
    // Deleting a bucket goes back to the caller's role after checking it as service_role.
    let back = RequestRole(role: "authenticated").prelude
    #expect(back.sql == "SELECT WHERE set_config('role', $1, true) IS NOT NULL")
    #expect(back.parameters == ["authenticated"])
  }

  @Test func anAuthTransactionRunsAsThePoolsUser() {
    #expect(PGPool.opening(as: nil, begin: "begin", then: []) == [PGStatement("begin")])
  }

  /// Whatever a token or a request carries is a parameter: the SQL is the shape's alone.
  @Test func quotesAndNULsAreParametersNeverSQL() {
    let hostile = "x'), set_config('role', 'postgres', true) --\u{0}\""
    var role = RequestRole(
      role: hostile, claims: #"{"sub":"'\u0000"}"#, settings: [.init(hostile, hostile)])
    role.method = hostile
    role.headers = "{\"x\":\"\u{0}'\"}"
    let prelude = role.prelude
    #expect(
      prelude.sql
        == Self.head + " AND set_config('request.method', $3, true) IS NOT NULL"
        + " AND set_config('request.headers', $4, true) IS NOT NULL AND set_config($5, $6, true) IS NOT NULL"
    )
    #expect(!prelude.sql.containsNUL && !prelude.sql.contains("postgres"))
    #expect(
      prelude.parameters == [
        hostile, #"{"sub":"'\u0000"}"#, hostile, "{\"x\":\"\u{0}'\"}", hostile, hostile,
      ])
  }

  /// `writtenSQL` keeps one text for each shape, read-only flag, row-security flag and settings
  /// count: every combination met, in an order that fills the cache before it is read, is the
  /// text `preludeSQL` writes for it (a key two of them shared would hand one the other's SQL).
  @Test func everyWrittenPreludeIsItsOwnShapes() {
    let fields = RequestRole.fieldNames.count
    var combinations: [(shape: Int, settings: Int, readOnly: Bool, rowSecurityOff: Bool)] = []
    for settings in [0, 1, 2, 3, 63, 64, 65] {
      for shape in 0..<(1 << fields) {
        for readOnly in [false, true] {
          for rowSecurityOff in [false, true] {
            combinations.append((shape, settings, readOnly, rowSecurityOff))
          }
        }
      }
    }
    for pass in 0..<2 {
      for c in pass == 0 ? combinations : combinations.reversed() {
        let written = RequestRole.writtenSQL(
          shape: c.shape, settings: c.settings, readOnly: c.readOnly,
          rowSecurityOff: c.rowSecurityOff)
        let expected = RequestRole.preludeSQL(
          shape: c.shape, settings: c.settings, readOnly: c.readOnly,
          rowSecurityOff: c.rowSecurityOff)
        #expect(written == expected, "\(c)")
      }
    }
  }
}
