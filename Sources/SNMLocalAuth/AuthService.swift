import SNMGateway
import SNMWire

/// `/auth/v1/*` as a gateway service: GoTrue's behaviour, which reads the token itself.
///
/// ```swift
/// let service = AuthService(gateway: auth, jwks: keys.signer.jwks)
/// ```
/// Two routes need no API key, as Supabase's gateway leaves them open: the JWKS (verifiers fetch
/// it unasked) and the mailed links' `GET /verify` (a browser follows them without a key).
package struct AuthService: GatewayService {
  let gateway: AuthGateway
  /// The project's public keys as a JWKS document.
  let jwks: JSONValue

  package init(gateway: AuthGateway, jwks: JSONValue) {
    self.gateway = gateway
    self.jwks = jwks
  }

  package var prefix: String { "/auth/v1" }
  package var admission: GatewayAdmission { .apiKey }

  package func openResponse(_ request: HTTPRequest) -> HTTPResponse? {
    if request.path == "/auth/v1/.well-known/jwks.json",
      request.method == "GET" || request.method == "HEAD"
    {
      var response = HTTPResponse.json(status: 200, jwks)
      response.headers["Cache-Control"] = "public, max-age=600"
      return response
    }
    if request.path == "/auth/v1/verify", request.method == "GET",
      request.headers["apikey"] == nil, request.queryValue("apikey") == nil
    {
      return gateway.handle(request)
    }
    return nil
  }

  package func respond(_ request: HTTPRequest, caller: GatewayCaller) -> HTTPResponse {
    gateway.handle(request)
  }
}
