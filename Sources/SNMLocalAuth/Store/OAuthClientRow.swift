import SNMWire

/// A registered OAuth client as `auth.oauth_clients` keeps it (``OAuthClientStore``), and as
/// GoTrue's admin routes answer it (`OAuthServerClientResponse`): its secret never, but for the
/// one a create or a regeneration has just made.
struct OAuthClientRow: Equatable {
  var id: String
  /// `public` or `confidential`.
  var clientType: String
  /// `none`, `client_secret_basic` or `client_secret_post`.
  var tokenEndpointAuthMethod: String
  /// `manual` (the admin routes) or `dynamic`.
  var registrationType: String
  var redirectURIs: [String]
  var grantTypes: [String]
  var clientName: String?
  var clientURI: String?
  var logoURI: String?
  /// GoTrue's time format (UTC, microseconds, `Z`).
  var createdAt: String
  var updatedAt: String

  var isConfidential: Bool { clientType == "confidential" }

  /// GoTrue's answer for the client, in its field order; empty fields left out as it leaves them
  /// out. `secret`: the plain secret just made, shown this once.
  func json(secret: String? = nil) -> JSONValue {
    var members: [JSONObject.Member] = [.init("client_id", .string(id))]
    if let secret, !secret.isEmpty { members.append(.init("client_secret", .string(secret))) }
    members.append(.init("client_type", .string(clientType)))
    if !redirectURIs.isEmpty {
      members.append(.init("redirect_uris", .array(redirectURIs.map { .string($0) })))
    }
    if !tokenEndpointAuthMethod.isEmpty {
      members.append(.init("token_endpoint_auth_method", .string(tokenEndpointAuthMethod)))
    }
    if !grantTypes.isEmpty {
      members.append(.init("grant_types", .array(grantTypes.map { .string($0) })))
    }
    members.append(.init("response_types", .array([.string("code")])))
    for (name, value) in [("client_name", clientName), ("client_uri", clientURI)]
      + [("logo_uri", logoURI)]
    {
      if let value, !value.isEmpty { members.append(.init(name, .string(value))) }
    }
    if !registrationType.isEmpty {
      members.append(.init("registration_type", .string(registrationType)))
    }
    members.append(.init("created_at", .string(createdAt)))
    members.append(.init("updated_at", .string(updatedAt)))
    return .object(members)
  }

  /// GoTrue's list column: comma-joined, split again as it reads it back.
  static func list(_ text: String?) -> [String] {
    guard let text, !text.isEmpty else { return [] }
    return text.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
  }
}
