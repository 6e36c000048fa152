import SNMWire
import Testing

@testable import SNMGateway
@testable import SNMLocal
@testable import SNMLocalAuth

/// Every path GoTrue serves that the local project answers reaches its route; a served path with
/// another method is a 405, anything else a 404; admin and factor paths are gated before either.
@Suite struct AuthRouteTests {
  struct Case: Sendable, CustomTestStringConvertible {
    let method: String
    let path: String
    let route: AuthRoute
    var testDescription: String { "\(method) \(path)" }
  }

  static let id = "0c0e5a1e-7f3a-4c55-9d43-2f8b6d3c1a10"
  static let factor = "9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d"

  static let served: [Case] = [
    Case(method: "GET", path: "/auth/v1/health", route: .health),
    Case(method: "GET", path: "/auth/v1/settings", route: .settings),
    Case(method: "POST", path: "/auth/v1/signup", route: .signup),
    Case(method: "POST", path: "/auth/v1/token", route: .token),
    Case(method: "GET", path: "/auth/v1/user", route: .user),
    Case(method: "PUT", path: "/auth/v1/user", route: .updateUser),
    Case(method: "POST", path: "/auth/v1/logout", route: .logout),
    Case(method: "POST", path: "/auth/v1/otp", route: .otp),
    Case(method: "POST", path: "/auth/v1/magiclink", route: .magicLink),
    Case(method: "POST", path: "/auth/v1/recover", route: .recover),
    Case(method: "POST", path: "/auth/v1/resend", route: .resend),
    Case(method: "GET", path: "/auth/v1/reauthenticate", route: .reauthenticate),
    Case(method: "POST", path: "/auth/v1/verify", route: .verify),
    Case(method: "GET", path: "/auth/v1/verify", route: .verifyLink),
    Case(method: "POST", path: "/auth/v1/invite", route: .invite),
    Case(method: "GET", path: "/auth/v1/authorize", route: .authorize),
    Case(method: "GET", path: "/auth/v1/callback", route: .callback),
    Case(method: "POST", path: "/auth/v1/callback/", route: .callback),
    Case(method: "GET", path: "/auth/v1/idp/authorize", route: .testProviderPage),
    Case(method: "GET", path: "/auth/v1/admin/oauth/clients", route: .adminOAuth(.listClients)),
    Case(
      method: "POST", path: "/auth/v1/admin/oauth/clients/\(id)/regenerate_secret",
      route: .adminOAuth(.regenerateSecret(id: id))),
    Case(method: "POST", path: "/auth/v1/authorize", route: .methodNotAllowed),
    Case(method: "POST", path: "/auth/v1/sso", route: .sso),
    Case(method: "GET", path: "/auth/v1/sso/saml/metadata", route: .sso),
    Case(method: "GET", path: "/auth/v1/user/identities/authorize", route: .identities),
    Case(method: "DELETE", path: "/auth/v1/user/identities/\(id)", route: .identities),
    Case(method: "GET", path: "/auth/v1/admin/users", route: .listUsers),
    Case(method: "POST", path: "/auth/v1/admin/users", route: .createUser),
    Case(method: "POST", path: "/auth/v1/admin/generate_link", route: .generateLink),
    Case(method: "GET", path: "/auth/v1/admin/users/\(id)", route: .adminUser(id: id)),
    Case(method: "PUT", path: "/auth/v1/admin/users/\(id)", route: .updateUserAsAdmin(id: id)),
    Case(method: "DELETE", path: "/auth/v1/admin/users/\(id)", route: .deleteUser(id: id)),
    Case(
      method: "GET", path: "/auth/v1/admin/users/\(id)/factors",
      route: .adminUserFactors(userID: id)),
    Case(
      method: "DELETE", path: "/auth/v1/admin/users/\(id)/factors/\(factor)",
      route: .deleteUserFactor(userID: id, factorID: factor)),
    Case(method: "POST", path: "/auth/v1/factors", route: .enrollFactor),
    Case(method: "DELETE", path: "/auth/v1/factors/\(factor)", route: .unenrollFactor(id: factor)),
    Case(
      method: "POST", path: "/auth/v1/factors/\(factor)/challenge",
      route: .challengeFactor(id: factor)),
    Case(
      method: "POST", path: "/auth/v1/factors/\(factor)/verify", route: .verifyFactor(id: factor)),
  ]

  static let spelled: [Case] = [
    Case(method: "get", path: "/auth/v1/health", route: .health),
    Case(method: "POST", path: "/auth/v1/token/", route: .token),
    Case(method: "GET", path: "/auth/v1/user///", route: .user),
    Case(method: "GET", path: "/auth/v1/admin//users/", route: .listUsers),
    Case(method: "POST", path: "/auth/v1/factors//", route: .enrollFactor),
    // Path parameters are kept as written; the handler checks them after the gate.
    Case(
      method: "GET", path: "/auth/v1/admin/users/not-a-uuid", route: .adminUser(id: "not-a-uuid")),
  ]

  static let wrongMethods: [Case] = [
    Case(method: "POST", path: "/auth/v1/health", route: .methodNotAllowed),
    Case(method: "PUT", path: "/auth/v1/settings", route: .methodNotAllowed),
    Case(method: "GET", path: "/auth/v1/signup", route: .methodNotAllowed),
    Case(method: "GET", path: "/auth/v1/token", route: .methodNotAllowed),
    Case(method: "DELETE", path: "/auth/v1/user", route: .methodNotAllowed),
    Case(method: "GET", path: "/auth/v1/logout", route: .methodNotAllowed),
    Case(method: "GET", path: "/auth/v1/otp", route: .methodNotAllowed),
    Case(method: "GET", path: "/auth/v1/magiclink", route: .methodNotAllowed),
    Case(method: "GET", path: "/auth/v1/recover", route: .methodNotAllowed),
    Case(method: "GET", path: "/auth/v1/resend", route: .methodNotAllowed),
    Case(method: "POST", path: "/auth/v1/reauthenticate", route: .methodNotAllowed),
    Case(method: "PUT", path: "/auth/v1/verify", route: .methodNotAllowed),
    Case(method: "GET", path: "/auth/v1/invite", route: .methodNotAllowed),
    Case(method: "HEAD", path: "/auth/v1/health", route: .methodNotAllowed),
    Case(
      method: "PATCH", path: "/auth/v1/admin/users/\(id)", route: .adminUserWrongMethod(id: id)),
    Case(
      method: "GET", path: "/auth/v1/admin/users/\(id)/factors/\(factor)",
      route: .userFactorWrongMethod(userID: id, factorID: factor)),
    Case(method: "GET", path: "/auth/v1/factors", route: .factorWrongMethod),
    Case(method: "GET", path: "/auth/v1/factors/\(factor)", route: .factorWrongMethod),
    Case(method: "GET", path: "/auth/v1/factors/\(factor)/verify", route: .factorWrongMethod),
    Case(method: "DELETE", path: "/auth/v1/factors/\(factor)/challenge", route: .factorWrongMethod),
  ]

  static let unknown: [Case] = [
    Case(method: "GET", path: "/auth/v1", route: .notFound),
    Case(method: "GET", path: "/auth/v1/", route: .notFound),
    Case(method: "GET", path: "/auth/v1/nope", route: .notFound),
    Case(method: "GET", path: "/auth/v1//user", route: .notFound),
    Case(method: "GET", path: "/auth/v1/health/more", route: .notFound),
    Case(method: "GET", path: "/auth/v1x/health", route: .notFound),
    Case(method: "GET", path: "/rest/v1/health", route: .notFound),
    Case(method: "PUT", path: "/auth/v1/callback", route: .methodNotAllowed),
    Case(method: "GET", path: "/auth/v1/admin", route: .adminNotFound),
    Case(method: "GET", path: "/auth/v1/admin/audit", route: .adminNotFound),
    Case(method: "PUT", path: "/auth/v1/admin/users", route: .adminNotFound),
    Case(method: "POST", path: "/auth/v1/admin/users/\(id)/factors", route: .adminNotFound),
    Case(method: "GET", path: "/auth/v1/admin/users/\(id)/identities", route: .adminNotFound),
    Case(method: "POST", path: "/auth/v1/factors/\(factor)/other", route: .factorNotFound),
    Case(method: "POST", path: "/auth/v1/factors/\(factor)/verify/x", route: .factorNotFound),
  ]

  @Test(arguments: served + spelled + wrongMethods + unknown)
  func pathsReachTheirRoutes(_ test: Case) {
    #expect(AuthRoute(method: test.method, path: test.path) == test.route)
  }

  @Test func adminAndFactorRoutesAreGated() {
    for test in Self.served + Self.wrongMethods + Self.unknown {
      let route = AuthRoute(method: test.method, path: test.path)
      let expected: AuthRoute.Gate =
        test.path.hasPrefix("/auth/v1/admin")
        ? .admin : test.path.hasPrefix("/auth/v1/factors") ? .user : .none
      #expect(route.gate == expected, "\(test.method) \(test.path)")
    }
  }

  let gateway: AuthGateway = {
    let pool = PGPool(conninfo: "host=/nonexistent dbname=none", size: 1, waitLimit: 0.1)
    return AuthGateway(
      pool: pool, signer: JWTSigner(secret: Array("route-test-secret-route-test-secret".utf8)),
      settings: AuthSettings(issuer: "http://127.0.0.1:54321/auth/v1"), now: { 1_000_000 })
  }()

  func answer(_ method: String, _ path: String) -> (Int, String) {
    let response = gateway.handle(HTTPRequest(method: method, target: path))
    return (response.status, String(decoding: response.body, as: UTF8.self))
  }

  @Test func unknownPathsAreGoTruesPlain404AndWrongMethodsA405() {
    #expect(answer("GET", "/auth/v1/nope") == (404, "404 page not found\n"))
    #expect(answer("POST", "/auth/v1/health").0 == 405)
    #expect(answer("GET", "/auth/v1/health").0 == 200)
  }

  @Test func theGateAnswersBeforeTheRoute() {
    // No token: 401 before the admin path's 404, the factor path's 405 or a bad UUID's 404.
    #expect(answer("GET", "/auth/v1/admin/audit").0 == 401)
    #expect(answer("GET", "/auth/v1/admin/users/not-a-uuid").0 == 401)
    #expect(answer("GET", "/auth/v1/factors").0 == 401)
    #expect(answer("POST", "/auth/v1/factors/x/other").0 == 401)
  }
}
