import Testing

@testable import SNMLocalAuth

/// Every path of the OAuth server's admin client routes reaches its route, as GoTrue's router
/// matches `/admin/oauth/clients[/{client_id}[/regenerate_secret]]`; the client id is kept as
/// written, for the handler to read after the server switch.
@Suite struct OAuthAdminRouteTests {
  static let id = "0c0e5a1e-7f3a-4c55-9d43-2f8b6d3c1a10"

  static let cases: [AuthRouteTests.Case] = [
    .init(method: "GET", path: "/auth/v1/admin/oauth/clients", route: .adminOAuth(.listClients)),
    .init(method: "GET", path: "/auth/v1/admin/oauth/clients/", route: .adminOAuth(.listClients)),
    .init(method: "POST", path: "/auth/v1/admin/oauth/clients", route: .adminOAuth(.createClient)),
    .init(
      method: "DELETE", path: "/auth/v1/admin/oauth/clients",
      route: .adminOAuth(.clientsWrongMethod)),
    .init(
      method: "GET", path: "/auth/v1/admin/oauth/clients/\(id)",
      route: .adminOAuth(.getClient(id: id))),
    .init(
      method: "PUT", path: "/auth/v1/admin/oauth/clients/\(id)",
      route: .adminOAuth(.updateClient(id: id))),
    .init(
      method: "DELETE", path: "/auth/v1/admin/oauth/clients/\(id)/",
      route: .adminOAuth(.deleteClient(id: id))),
    .init(
      method: "PATCH", path: "/auth/v1/admin/oauth/clients/\(id)",
      route: .adminOAuth(.clientWrongMethod(id: id))),
    .init(
      method: "POST", path: "/auth/v1/admin/oauth/clients/\(id)/regenerate_secret",
      route: .adminOAuth(.regenerateSecret(id: id))),
    .init(
      method: "GET", path: "/auth/v1/admin/oauth/clients/\(id)/regenerate_secret",
      route: .adminOAuth(.clientWrongMethod(id: id))),
    .init(
      method: "GET", path: "/auth/v1/admin/oauth/clients/\(id)/secrets",
      route: .adminOAuth(.clientPathNotFound(id: id))),
    .init(
      method: "GET", path: "/auth/v1/admin/oauth/clients/not-a-uuid",
      route: .adminOAuth(.getClient(id: "not-a-uuid"))),
    .init(method: "GET", path: "/auth/v1/admin/oauth", route: .adminOAuth(.notFound)),
    .init(method: "POST", path: "/auth/v1/admin/oauth/register", route: .adminOAuth(.notFound)),
  ]

  @Test(arguments: cases)
  func pathsReachTheirRoutes(_ test: AuthRouteTests.Case) {
    #expect(AuthRoute(method: test.method, path: test.path) == test.route)
    #expect(AuthRoute(method: test.method, path: test.path).gate == .admin)
  }

  @Test func aClientIDIsReadAsGoTruesUUIDLibraryReadsIt() {
    let canonical = "0c0e5a1e-7f3a-4c55-9d43-2f8b6d3c1a10"
    for text in [
      canonical, canonical.uppercased(), "{\(canonical)}", "urn:uuid:\(canonical)",
      "URN:UUID:\(canonical)", "0c0e5a1e7f3a4c559d432f8b6d3c1a10",
      "{0c0e5a1e7f3a4c559d432f8b6d3c1a10}",
    ] {
      #expect(OAuthClientsAPI.canonicalUUID(text) == canonical, "\(text)")
    }
    for text in [
      "", "not-a-uuid", String(canonical.dropLast()), canonical + "0",
      "0c0e5a1e_7f3a-4c55-9d43-2f8b6d3c1a10", "0c0e5a1e-7f3a-4c55-9d43-2f8b6d3c1a1g",
      "[\(canonical)]", "urn:uid:x\(canonical)", "0c0e5a1e-7f3a4c55-9d43-2f8b6d3c1a10-",
    ] {
      #expect(OAuthClientsAPI.canonicalUUID(text) == nil, "\(text)")
    }
  }
}
