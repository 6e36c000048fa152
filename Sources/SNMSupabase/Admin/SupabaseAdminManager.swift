import Foundation
import SNMNetwork
import SNMWire

/// The project's users as its service key sees them (GoTrue's admin API), and the local
/// project's inbox. Every request goes with the service key and never with a user's session.
///
/// ```swift
/// let admin = SupabaseAdminManager(url: url, provider: serviceProvider)   // provider: service key
/// let page = try await admin.listUsers(page: 1, perPage: 50, filter: "ci-")
/// let user = try await admin.createUser(["email": "ci-1@example.com", "password": pw])
/// try await admin.deleteUser(id: id, soft: false)
/// ```
/// Throws ``SupabaseAuthError`` for a refusal (decoded from GoTrue's error bodies; 401/403 when
/// the key is not a service key), ``AuthResponseError`` for an answer that is not what was asked
/// for, `SNMNetworkError` when the server cannot be reached.
public struct SupabaseAdminManager: Sendable {
  /// The project's base URL.
  public let url: String
  let provider: SNMNetworkProvider

  /// `provider` must be configured with the service key (`sb_secret_...` or the legacy
  /// `service_role` JWT).
  public init(url: String, provider: SNMNetworkProvider) {
    self.url = url
    self.provider = provider
  }

  /// A page of users: GoTrue's `{"users": [...], "aud": ...}` with the total from `X-Total-Count`.
  public struct UserPage: Sendable, Equatable {
    public var users: [JSONValue]
    /// `X-Total-Count`, when sent.
    public var total: Int?
  }

  /// `GET /auth/v1/admin/users`.
  public func listUsers(page: Int?, perPage: Int?, filter: String?) async throws -> UserPage {
    let response = try await send(.listUsers(page: page, perPage: perPage, filter: filter))
    let body = try object(response, what: "a list of users")
    guard let users = body["users"]?.arrayValue else {
      throw AuthResponseError.malformed("no 'users'")
    }
    return UserPage(users: users, total: response.headers["x-total-count"].flatMap { Int($0) })
  }

  /// `GET /auth/v1/admin/users/{id}`.
  public func user(id: String) async throws -> JSONValue {
    try object(try await send(.user(id: id)), what: "a user")
  }

  /// `POST /auth/v1/admin/users`.
  public func createUser(_ attributes: JSONObject) async throws -> JSONValue {
    try object(try await send(.createUser(attributes: attributes)), what: "a user")
  }

  /// `PUT /auth/v1/admin/users/{id}`.
  public func updateUser(id: String, attributes: JSONObject) async throws -> JSONValue {
    try object(try await send(.updateUser(id: id, attributes: attributes)), what: "a user")
  }

  /// `DELETE /auth/v1/admin/users/{id}`.
  public func deleteUser(id: String, soft: Bool) async throws {
    _ = try await send(.deleteUser(id: id, soft: soft))
  }

  /// `POST /auth/v1/admin/generate_link`: the user with `action_link`, `email_otp`,
  /// `hashed_token`, `verification_type`, `redirect_to` (GoTrue's `GenerateLinkResponse`).
  public func generateLink(type: String, email: String, password: String?, data: JSONValue?)
    async throws -> JSONValue
  {
    let call = AdminEndpoint.generateLink(type: type, email: email, password: password, data: data)
    return try object(try await send(call), what: "a link")
  }

  /// `POST /auth/v1/invite`: the invited user.
  public func invite(email: String, data: JSONValue?) async throws -> JSONValue {
    try object(try await send(.invite(email: email, data: data)), what: "a user")
  }

  /// The local project's newest mails to `address` (at most `limit`), newest first.
  /// - Throws: ``InboxError/notLocal`` when the project has no inbox (404: a hosted project).
  public func inbox(address: String, limit: Int) async throws -> [JSONValue] {
    let response: SNMResponse
    do {
      response = try await send(.inbox(address: address, limit: limit))
    } catch let refusal as SupabaseAuthError where refusal.status == 404 {
      throw InboxError.notLocal
    }
    guard let value = try? JSONValue(parsing: response.body), let mails = value.arrayValue else {
      throw AuthResponseError.malformed("not a list of mails")
    }
    return mails
  }

  private func object(_ response: SNMResponse, what: String) throws -> JSONValue {
    try AuthResponseError.object(in: response, what: what)
  }

  /// Sends `call` with the service key; a non-2xx answer becomes ``SupabaseAuthError``.
  private func send(_ call: AdminEndpoint) async throws -> SNMResponse {
    do {
      return try await provider.send(endpoint: call.endpoint(base: url))
    } catch .http(let failure) {
      throw SupabaseAuthError(answer: failure)
    }
  }
}

/// Why `inbox` has nothing to read.
public enum InboxError: Error, Sendable, Hashable, CustomStringConvertible {
  /// The project answered 404: only the local project (`snm local`) keeps an inbox.
  case notLocal

  public var description: String {
    switch self {
    case .notLocal:
      "the inbox is a local-project feature: this project has none (hosted projects send real "
        + "mail; use 'snm local start' for a project that keeps its mail in an inbox)"
    }
  }
}
