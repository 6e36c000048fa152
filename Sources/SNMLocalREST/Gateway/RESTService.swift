import SNMGateway
import SNMWire

/// `/rest/v1/*` as a gateway service: the REST handler (PostgREST's behaviour) and the pool it
/// runs on, called with the verified role.
///
/// ```swift
/// let service = RESTService(handler: RESTGateway(), pool: restPool)
/// service.respond(request, caller: caller)   // handler.handle(request, auth: caller.auth, ...)
/// ```
package struct RESTService: GatewayService {
  let handler: any RESTHandling
  /// Connects as `authenticator`; the handler switches to the caller's role.
  let pool: PGPool

  package init(handler: any RESTHandling, pool: PGPool) {
    self.handler = handler
    self.pool = pool
  }

  package var prefix: String { "/rest/v1" }
  package var admission: GatewayAdmission { .verifiedRole }

  package func respond(_ request: HTTPRequest, caller: GatewayCaller) -> HTTPResponse {
    RESTCORS.exposing(handler.handle(request, auth: caller.auth, database: pool), for: request)
  }

  /// PostgREST's answer to a CORS preflight (`RESTCORS`).
  package func preflight(_ request: HTTPRequest) -> HTTPResponse? { RESTCORS.preflight(request) }
}
