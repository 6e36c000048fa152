import SNMGateway
import SNMWire

/// The OAuth 2.1 server's admin client routes (`/admin/oauth/clients[/{id}[/regenerate_secret]]`),
/// answered as GoTrue answers them: an admin registers, lists, reads, changes and deletes the
/// applications that may sign users in through this project, and makes a confidential client a
/// new secret. Behind the project's switch (`--oauth-server`, `[auth.oauth_server] enabled`;
/// GoTrue's `OAUTH_SERVER_ENABLED`): off, every path here is 404 feature_disabled. A secret is
/// shown once, in the answer that made it, and kept only as its SHA-256.
///
/// ```swift
/// try gateway.requireAdmin(request)
/// return try OAuthClientsAPI(gateway: gateway).handle(request, route: .listClients)
/// ```
struct OAuthClientsAPI {
  let gateway: AuthGateway

  /// One admin request under `/admin/oauth`, for a caller `AuthGateway.requireAdmin` let through.
  func handle(_ request: HTTPRequest, route: OAuthAdminRoute) throws -> HTTPResponse {
    guard gateway.settings.oauthServerEnabled else { throw AuthFailure.oauthServerDisabled }
    switch route {
    case .notFound: throw AuthFailure.notFound
    case .clientsWrongMethod: throw AuthFailure.methodNotAllowed
    case .listClients: return try list()
    case .createClient: return try create(try OAuthClientFields(body: request.body))
    default: break
    }
    // The id as GoTrue's router gives it: percent-decoded, as Go decodes a request's path.
    guard let id = Self.canonicalUUID(PercentEncoding.decode(route.clientID ?? "")) else {
      throw AuthFailure.validationFailed("invalid client_id format")
    }
    return try gateway.inTransaction { connection in
      let store = OAuthClientStore(connection)
      guard let client = try store.client(id: id, locked: true) else {
        throw AuthFailure.oauthClientNotFound
      }
      switch route {
      case .getClient:
        return .json(status: 200, client.json())
      case .updateClient:
        return .json(
          status: 200,
          try store.update(try Self.updated(client, by: try OAuthClientFields(body: request.body)))
            .json())
      case .deleteClient:
        try store.delete(id: client.id)
        return HTTPResponse(status: 204)
      case .regenerateSecret:
        guard client.isConfidential else {
          throw AuthFailure.validationFailed("Cannot regenerate secret for public client")
        }
        let secret = try Self.newSecret()
        let changed = try store.replaceSecret(id: client.id, secretHash: secret.hash)
        return .json(status: 200, changed.json(secret: secret.plain))
      case .clientWrongMethod:
        throw AuthFailure.methodNotAllowed
      default:
        throw AuthFailure.notFound
      }
    }
  }

  /// `GET /admin/oauth/clients`: every client, newest first, as GoTrue lists them: on one page
  /// (it reads no `page` or `per_page`), `{}` when there are none.
  func list() throws -> HTTPResponse {
    let clients = try gateway.pool.withConnection { connection in
      try OAuthClientStore(connection).list()
    }
    guard !clients.isEmpty else { return .json(status: 200, .object([])) }
    return .json(status: 200, .object([.init("clients", .array(clients.map { $0.json() }))]))
  }

  /// `POST /admin/oauth/clients`: a client registered by an admin (`registration_type`
  /// `manual`); 201 with its secret when it is confidential.
  func create(_ fields: OAuthClientFields) throws -> HTTPResponse {
    // GoTrue wraps the checks' own 400 once more: its messages start "400: ".
    if let problem = fields.registrationProblem {
      throw AuthFailure.validationFailed("400: " + problem)
    }
    let client = fields.newClient(registrationType: "manual")
    let secret = client.isConfidential ? try Self.newSecret() : nil
    let made = try gateway.inTransaction { connection in
      try OAuthClientStore(connection).insert(client, secretHash: secret?.hash)
    }
    return .json(status: 201, made.json(secret: secret?.plain))
  }

  /// `client` as a `PUT` with `fields` leaves it, or GoTrue's 400 for the update.
  static func updated(_ client: OAuthClientRow, by fields: OAuthClientFields) throws(AuthFailure)
    -> OAuthClientRow
  {
    guard !fields.isEmptyUpdate else {
      throw AuthFailure.validationFailed("No fields provided for update")
    }
    if let problem = fields.updateProblem {
      throw AuthFailure.validationFailed(problem)
    }
    let (changed, problem) = fields.applied(to: client)
    if let problem { throw AuthFailure.validationFailed(problem) }
    return changed
  }

  /// A new client secret (32 random bytes, base64url) and what is kept of it: its SHA-256 in
  /// base64url, as GoTrue keeps it.
  static func newSecret() throws -> (plain: String, hash: String) {
    let plain = Base64URL.encode(try Crypto.randomBytes(32))
    return (plain, Base64URL.encode(try Crypto.sha256(Array(plain.utf8))))
  }

  /// `text` as the lowercase canonical UUID, read as GoTrue's UUID library reads a client id:
  /// canonical, 32 hex digits, either in braces, or after `urn:uuid:`; nil otherwise.
  static func canonicalUUID(_ text: String) -> String? {
    let bytes = Array(text.utf8)
    switch bytes.count {
    case 32:
      guard bytes.allSatisfy({ HexDigit.value($0) != nil }) else { return nil }
      let hex = text.lowercased()
      var canonical = ""
      for (offset, character) in hex.enumerated() {
        if [8, 12, 16, 20].contains(offset) { canonical.append("-") }
        canonical.append(character)
      }
      return canonical
    case 34, 38:
      guard text.hasPrefix("{"), text.hasSuffix("}") else { return nil }
      return canonicalUUID(String(text.dropFirst().dropLast()))
    case 36:
      return UUIDText.canonical(text)
    case 41, 45:
      guard text.prefix(9).lowercased() == "urn:uuid:" else { return nil }
      return canonicalUUID(String(text.dropFirst(9)))
    default:
      return nil
    }
  }
}
