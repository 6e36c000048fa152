import SNMGateway
import SNMWire

/// `/inbox/v1/messages` as a gateway service: the mail and SMS Auth sent, for the project's
/// owner (a service credential) or the addressee.
///
/// ```swift
/// let service = InboxService(gateway: auth, isServiceCredential: { router.isServiceCredential($0) })
/// ```
/// The gateway checks nothing: the inbox decides from the credential it is sent.
package struct InboxService: GatewayService {
  let gateway: AuthGateway
  /// Whether a credential (an `apikey` or Bearer token) carries the service role.
  let isServiceCredential: @Sendable (String) -> Bool

  package init(gateway: AuthGateway, isServiceCredential: @escaping @Sendable (String) -> Bool) {
    self.gateway = gateway
    self.isServiceCredential = isServiceCredential
  }

  package var prefix: String { "/inbox/v1" }
  package var admission: GatewayAdmission { .open }

  package func respond(_ request: HTTPRequest, caller: GatewayCaller) -> HTTPResponse {
    guard request.path == "/inbox/v1/messages" else { return AuthGateway.notFoundResponse }
    return gateway.inbox(request, isServiceKey: isServiceCredential)
  }
}
