import SNMGateway

/// Every SQL statement about the OAuth server's registered clients (`auth.oauth_clients`), as
/// named operations on the caller's transaction, values only as parameters. A deleted client
/// keeps its row with `deleted_at` set, as GoTrue keeps it, and is found by nothing here.
///
/// ```swift
/// let clients = OAuthClientStore(connection)
/// let made = try clients.insert(new)                       // with the secret's hash, if any
/// let found = try clients.client(id: made.id, locked: true)
/// ```
/// Every operation throws `PGError` when Postgres refuses a statement.
struct OAuthClientStore: AuthSQLStore {
  let connection: PGConnection

  /// The columns an `OAuthClientRow` is read from, in its order.
  static let columns =
    "id::text, client_type::text, token_endpoint_auth_method, registration_type::text, "
    + "redirect_uris, grant_types, client_name, client_uri, logo_uri, "
    + AuthStore.iso("created_at") + ", " + AuthStore.iso("updated_at")

  /// Keeps a new client (a fresh id); `secretHash` nil for a public client.
  func insert(_ client: OAuthClientRow, secretHash: String?) throws -> OAuthClientRow {
    let made = try connection.execute(
      "insert into auth.oauth_clients (id, client_secret_hash, registration_type, redirect_uris, "
        + "grant_types, client_name, client_uri, logo_uri, client_type, "
        + "token_endpoint_auth_method) values (gen_random_uuid(), $1, "
        + "$2::auth.oauth_registration_type, $3, $4, $5, $6, $7, $8::auth.oauth_client_type, $9) "
        + "returning " + Self.columns,
      [
        secretHash, client.registrationType, client.redirectURIs.joined(separator: ","),
        client.grantTypes.joined(separator: ","), client.clientName, client.clientURI,
        client.logoURI, client.clientType, client.tokenEndpointAuthMethod,
      ])
    return try Self.only(made)
  }

  /// The client `id` (a UUID), nil when there is none or it was deleted; `locked` until the
  /// transaction ends.
  func client(id: String, locked: Bool = false) throws -> OAuthClientRow? {
    let found = try connection.execute(
      "select " + Self.columns + " from auth.oauth_clients "
        + "where id = $1::uuid and deleted_at is null" + (locked ? " for update" : ""), [id])
    return found.rows.first.flatMap(Self.row)
  }

  /// Every client not deleted, newest first.
  func list() throws -> [OAuthClientRow] {
    let found = try connection.execute(
      "select " + Self.columns + " from auth.oauth_clients where deleted_at is null "
        + "order by created_at desc, id")
    return found.rows.compactMap(Self.row)
  }

  /// Writes the fields an admin may change; returns the client as it now is.
  func update(_ client: OAuthClientRow) throws -> OAuthClientRow {
    let changed = try connection.execute(
      "update auth.oauth_clients set redirect_uris = $2, grant_types = $3, client_name = $4, "
        + "client_uri = $5, logo_uri = $6, token_endpoint_auth_method = $7, updated_at = now() "
        + "where id = $1::uuid and deleted_at is null returning " + Self.columns,
      [
        client.id, client.redirectURIs.joined(separator: ","),
        client.grantTypes.joined(separator: ","), client.clientName, client.clientURI,
        client.logoURI, client.tokenEndpointAuthMethod,
      ])
    return try Self.only(changed)
  }

  /// Replaces the client's secret by the one `secretHash` is the hash of.
  func replaceSecret(id: String, secretHash: String) throws -> OAuthClientRow {
    let changed = try connection.execute(
      "update auth.oauth_clients set client_secret_hash = $2, updated_at = now() "
        + "where id = $1::uuid and deleted_at is null returning " + Self.columns,
      [id, secretHash])
    return try Self.only(changed)
  }

  /// Marks the client deleted: no route finds it again.
  func delete(id: String) throws {
    _ = try connection.execute(
      "update auth.oauth_clients set deleted_at = now(), updated_at = now() "
        + "where id = $1::uuid and deleted_at is null", [id])
  }

  static func only(_ result: PGResult) throws -> OAuthClientRow {
    guard let first = result.rows.first, let row = row(first) else {
      throw PGError(kind: .client, message: "the OAuth client row was not written")
    }
    return row
  }

  static func row(_ values: [String?]) -> OAuthClientRow? {
    guard values.count == 11, let id = values[0], let type = values[1], let method = values[2],
      let registration = values[3], let created = values[9], let updated = values[10]
    else { return nil }
    return OAuthClientRow(
      id: id, clientType: type, tokenEndpointAuthMethod: method, registrationType: registration,
      redirectURIs: OAuthClientRow.list(values[4]), grantTypes: OAuthClientRow.list(values[5]),
      clientName: values[6], clientURI: values[7], logoURI: values[8], createdAt: created,
      updatedAt: updated)
  }
}
