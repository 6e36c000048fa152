import SNMGateway
import SNMWire

/// GoTrue's admin API: the project's users listed, made, changed and deleted
/// (`/admin/users[/{id}]`), their factors (`/admin/users/{id}/factors[/{factor}]`), invites
/// (`/invite`), the links of the account mails (`/admin/generate_link`) and, under
/// `/admin/oauth`, the OAuth server's clients (``OAuthClientsAPI``). Only for a caller
/// with an admin role (`AuthGateway.requireAdmin`); each handler is request -> store call ->
/// GoTrue answer, on the gateway's pool.
///
/// ```swift
/// try gateway.requireAdmin(request)
/// return try AuthAdminAPI(gateway: gateway).handle(request, route: .listUsers)
/// ```
struct AuthAdminAPI {
  let gateway: AuthGateway

  /// `/admin/users[/{id}]`, `/admin/users/{id}/factors[/{factor}]`, `/admin/generate_link`,
  /// `/admin/oauth/...`, for a caller `AuthGateway.requireAdmin` let through.
  func handle(_ request: HTTPRequest, route: AuthRoute) throws -> HTTPResponse {
    switch route {
    case .listUsers:
      return try listUsers(request)
    case .createUser:
      return try createUser(try AuthGateway.body(request))
    case .generateLink:
      return try generateLink(try AuthGateway.body(request))
    case .adminUser(let id):
      return .json(
        status: 200, try adminUser(try AuthGateway.uuidParameter(id, name: "user_id")).json)
    case .updateUserAsAdmin(let id):
      let id = try AuthGateway.uuidParameter(id, name: "user_id")
      return try updateUserAsAdmin(id, body: try AuthGateway.body(request))
    case .deleteUser(let id):
      let id = try AuthGateway.uuidParameter(id, name: "user_id")
      return try deleteUser(
        id, body: request.body.isEmpty ? .object([]) : try AuthGateway.body(request))
    case .adminUserWrongMethod(let id):
      _ = try AuthGateway.uuidParameter(id, name: "user_id")
      throw AuthFailure.methodNotAllowed
    case .adminUserFactors(let id):
      let id = try AuthGateway.uuidParameter(id, name: "user_id")
      return .json(status: 200, .array(try adminUser(id).factors))
    case .deleteUserFactor(let userID, let factorID),
      .userFactorWrongMethod(let userID, let factorID):
      let id = try AuthGateway.uuidParameter(userID, name: "user_id")
      let factorID = try AuthGateway.uuidParameter(factorID, name: "factor_id")
      let user = try adminUser(id)
      guard let factor = user.factors.first(where: { $0["id"]?.stringValue == factorID }) else {
        throw AuthFailure.factorNotFound
      }
      guard case .deleteUserFactor = route else { throw AuthFailure.methodNotAllowed }
      try gateway.pool.withConnection { connection in
        try FactorStore(connection).delete(id: factorID)
      }
      return .json(status: 200, factor)
    case .adminOAuth(let route):
      return try OAuthClientsAPI(gateway: gateway).handle(request, route: route)
    default:
      throw AuthFailure.notFound
    }
  }

  /// The user with `id`, soft-deleted ones included (the admin API shows them).
  func adminUser(_ id: String) throws -> AuthUserRow {
    try gateway.pool.withConnection { connection in try adminUser(id, on: connection) }
  }

  /// The user with `id` and its factors, read on `connection` (inside a write's transaction).
  func adminUser(_ id: String, on connection: PGConnection) throws -> AuthUserRow {
    guard let user = try AuthStore(connection).user(includingDeleted: id) else {
      throw AuthFailure.adminUserNotFound
    }
    return user
  }
}
