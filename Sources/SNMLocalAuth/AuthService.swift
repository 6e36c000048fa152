import SNMGateway
import SNMWire

/// `/auth/v1/*` as a gateway service: GoTrue's behaviour, which reads the token itself.
///
/// ```swift
/// let service = AuthService(gateway: auth, jwks: keys.signer.jwks)
/// ```
/// Some routes need no API key, as Supabase's gateway leaves them open: the JWKS (verifiers fetch
/// it unasked), the mailed links' `GET /verify` and the OAuth flow's `GET /authorize` and
/// `/callback` (a browser follows them without a key), and the test issuer's sign-in page.
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
    // A browser follows these without a key: mailed links, the OAuth redirect flow.
    let browserPaths = [
      "/auth/v1/verify", "/auth/v1/authorize", "/auth/v1/callback", "/auth/v1/idp/authorize",
    ]
    if browserPaths.contains(request.path),
      request.method == "GET" || request.path == "/auth/v1/callback",
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
