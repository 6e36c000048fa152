import SNMGateway

/// What the router calls for every `/rest/v1/*` request (the PostgREST behaviour).
///
/// ```swift
/// struct RESTGateway: RESTHandling {
///   func handle(_ request: HTTPRequest, auth: RequestAuth, database: PGPool) -> HTTPResponse {
///     do {
///       let rows = try database.transaction(as: auth.requestRole) { tx in
///         try tx.execute("select coalesce(json_agg(t), '[]') from public.dog_profile t").scalar
///       }
///       return .json(status: 200, rows ?? "[]")
///     } catch { ... }
///   }
/// }
/// ```
/// Called on a server thread, possibly many at once: keep shared state `Sendable`. The router has
/// checked `apikey` and the JWT already; `auth` is the role to run as. `database` connects as
/// `authenticator` (NOINHERIT), so the handler must switch role, which `PGPool.transaction(as:)` does.
/// `request.path` still starts with `/rest/v1`.
public protocol RESTHandling: Sendable {
  func handle(_ request: HTTPRequest, auth: RequestAuth, database: PGPool) -> HTTPResponse
}
