import Foundation
import SNMWire
import Testing

@testable import SNMGateway
@testable import SNMLocal
@testable import SNMLocalREST

/// The gateway suites that share one scratch database: run one test at a time.
@Suite(.serialized, .enabled(if: GatewayHarness.enabled)) struct GatewayDatabaseTests {}

/// Drives `RESTGateway` against a scratch Postgres database holding `Fixtures/rest-fixture.sql`.
///
/// Enabled by `SNM_REST_TEST_PGHOST` (a socket directory of a cluster where `postgres` is a
/// superuser and the fixture may drop and recreate schemas); tests are skipped otherwise.
/// The end-to-end suite (Tests/EndToEnd) covers the same ground through the real binary.
final class GatewayHarness: Sendable {
  static let host = ProcessInfo.processInfo.environment["SNM_REST_TEST_PGHOST"]
  static var enabled: Bool { host != nil }

  let pool: PGPool
  let admin: PGConnection
  let gateway = RESTGateway()

  init() throws {
    guard let host = Self.host else { throw PGError(kind: .client, message: "not enabled") }
    admin = try PGConnection(conninfo: "host=\(host) user=postgres dbname=postgres")
    pool = PGPool(conninfo: "host=\(host) user=authenticator dbname=postgres", size: 4)
    try resetFixture()
  }

  /// Recreates the fixture schemas and rows, and reloads the gateway's schema cache.
  func resetFixture() throws {
    let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .appendingPathComponent("Fixtures/rest-fixture.sql")
    try admin.executeScript(try String(contentsOf: url, encoding: .utf8))
    // The local project's DDL event triggers (they NOTIFY pgrst), as every project has them.
    try admin.executeScript("create schema if not exists extensions; " + BootstrapSQL.ddlWatch)
    // The project's statement timeouts per role (anon 3 s, authenticator 8 s) are product
    // defaults these suites do not test; on a loaded 2-core machine the schema-cache reload and a
    // few reads once passed them (57014). The scratch cluster's roles get a minute instead, so no
    // test here depends on the machine's speed (the e2e tests keep the real timeouts).
    try admin.executeScript(
      "alter role anon set statement_timeout = '60s'; "
        + "alter role authenticated set statement_timeout = '60s'; "
        + "alter role authenticator set statement_timeout = '60s'")
    pool.drain()
    try gateway.reloadSchemaCache(database: pool)
  }

  /// Postgres's own body for `select` (its `json_agg`), as the superuser: what a read's body
  /// must equal.
  func jsonAgg(_ select: String) throws -> String? {
    try admin.execute("select coalesce(json_agg(r), '[]')::text from (\(select)) r").scalar
  }

  static let anon = RequestAuth.anonymous
  static let service = RequestAuth(
    role: "service_role", claims: .object([.init("role", .string("service_role"))]),
    isAnonymous: false)

  static func user(_ id: String) -> RequestAuth {
    RequestAuth(
      role: "authenticated",
      claims: .object([.init("role", .string("authenticated")), .init("sub", .string(id))]),
      isAnonymous: false)
  }

  /// Sends one request through the gateway.
  func send(
    _ method: String, _ target: String, headers: [(String, String)] = [], body: String? = nil,
    auth: RequestAuth = GatewayHarness.service
  ) -> HTTPResponse {
    let request = HTTPRequest(
      method: method, target: "/rest/v1" + target,
      headers: HTTPHeaders(headers.map { .init(name: $0.0, value: $0.1) }),
      body: body.map { Array($0.utf8) } ?? [])
    return gateway.handle(request, auth: auth, database: pool)
  }
}

extension HTTPResponse {
  var text: String { String(decoding: body, as: UTF8.self) }

  func header(_ name: String) -> String? { headers[name] }

  /// The body as JSON (`.null` when it does not parse).
  var json: JSONValue { (try? JSONValue(parsing: body)) ?? .null }
}
