import SNMGateway
import SNMWire

/// `/storage/v1/*` as a gateway service: who calls decides, a bad token is remembered.
extension StorageGateway: GatewayService {
  public var prefix: String { "/storage/v1" }
  public var admission: GatewayAdmission { .optionalKey }

  public var streamsBodies: Bool { true }

  public func respond(_ request: HTTPRequest, caller: GatewayCaller) -> HTTPResponse {
    handle(request, caller: caller)
  }

  public func bodyPlan(_ request: HTTPRequest, caller: GatewayCaller) -> HTTPBodyPlan {
    bodyPlan(for: request, caller: caller)
  }
}
