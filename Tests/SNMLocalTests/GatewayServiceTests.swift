import SNMWire
import Testing

@testable import SNMGateway
@testable import SNMLocal

/// A service of the kind still to come (Realtime, Functions): it answers with who called.
struct EchoService: GatewayService {
  var prefix: String { "/echo/v1" }
  var admission: GatewayAdmission

  func respond(_ request: HTTPRequest, caller: GatewayCaller) -> HTTPResponse {
    .json(
      status: 200,
      .object([
        .init("role", .string(caller.auth.role)),
        .init("authenticated", .bool(caller.isAuthenticated)),
        .init("tokenError", .optional(caller.tokenError)), .init("path", .string(request.path)),
      ]))
  }
}

/// Every service is found by its prefix and called the same way: admitted as it asks, then
/// `respond(request, caller:)`.
@Suite struct GatewayServiceTests {
  /// Admits `request` as `service` asks and calls it, as `Router.route` does.
  func call(_ service: EchoService, _ request: HTTPRequest, on router: Router) -> HTTPResponse {
    switch router.admit(request, as: service.admission) {
    case .success(let admitted):
      service.respond(admitted.changed ?? request, caller: admitted.caller)
    case .failure(let refusal): refusal.response
    }
  }

  @Test func theRouterTriesEachServicesPrefixInOrder() throws {
    let (router, _) = try routerFixture()
    #expect(router.services.map(\.prefix) == ["/rest/v1", "/auth/v1", "/inbox/v1"])
    #expect(router.services.map(\.admission) == [.verifiedRole, .apiKey, .open])
    let unknown = router.handle(HTTPRequest(method: "GET", target: "/echo/v1/x"))
    #expect(unknown.status == 404)
  }

  @Test func aVerifiedRoleServiceGetsTheTokensRole() throws {
    let (router, keys) = try routerFixture()
    let service = EchoService(admission: .verifiedRole)
    let user = token([
      .init("role", .string("authenticated")), .init("sub", .string("u1")),
      .init("aud", .string("authenticated")),
    ])
    let answer = call(
      service,
      HTTPRequest(
        method: "GET", target: "/echo/v1/x",
        headers: ["apikey": keys.anonKey, "Authorization": "Bearer " + user]),
      on: router)
    #expect(answer.status == 200)
    #expect(answer.bodyText.contains(#""role":"authenticated","authenticated":true"#))
    let missing = call(service, HTTPRequest(method: "GET", target: "/echo/v1/x"), on: router)
    #expect(missing.status == 401)
    #expect(missing.bodyText.contains("No API key found in request"))
    let refused = call(
      service,
      HTTPRequest(
        method: "GET", target: "/echo/v1/x",
        headers: ["apikey": keys.anonKey, "Authorization": "Bearer nonsense"]),
      on: router)
    #expect(refused.status == 401)
    #expect(refused.headers["Proxy-Status"]?.hasPrefix("PostgREST; error=PGRST") == true)
  }

  @Test func anOptionalKeyServiceRemembersARefusedToken() throws {
    let (router, _) = try routerFixture()
    let service = EchoService(admission: .optionalKey)
    let bare = call(service, HTTPRequest(method: "GET", target: "/echo/v1/x"), on: router)
    #expect(bare.bodyText.contains(#""role":"anon","authenticated":false,"tokenError":null"#))
    let refused = call(
      service,
      HTTPRequest(
        method: "GET", target: "/echo/v1/x", headers: ["Authorization": "Bearer nonsense"]),
      on: router)
    #expect(refused.status == 200)
    #expect(refused.bodyText.contains(#""tokenError":"Invalid Compact JWS""#))
  }

  @Test func anAPIKeyServiceNeedsTheProjectsKeyOnly() throws {
    let (router, keys) = try routerFixture()
    let service = EchoService(admission: .apiKey)
    let unknown = call(
      service, HTTPRequest(method: "GET", target: "/echo/v1/x", headers: ["apikey": "abc"]),
      on: router)
    #expect(unknown.status == 401)
    #expect(unknown.bodyText.contains("Invalid API key"))
    let known = call(
      service,
      HTTPRequest(
        method: "GET", target: "/echo/v1/x",
        headers: ["apikey": keys.anonKey, "Authorization": "Bearer nonsense"]),
      on: router)
    #expect(known.status == 200, "the service reads the token itself")
    let open = call(
      EchoService(admission: .open), HTTPRequest(method: "GET", target: "/echo/v1/x"),
      on: router)
    #expect(open.bodyText.contains(#""role":"anon","authenticated":false"#))
  }
}

extension HTTPResponse {
  fileprivate var bodyText: String { String(decoding: body, as: UTF8.self) }
}
