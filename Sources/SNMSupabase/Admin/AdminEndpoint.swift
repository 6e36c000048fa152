import Foundation
import SNMNetwork
import SNMWire

/// The requests that need the project's service key: GoTrue's `/admin` routes and `/invite`
/// (shapes from GoTrue's `internal/api/admin.go`, `mail.go`, `invite.go`), and the local
/// project's inbox.
///
/// ```swift
/// AdminEndpoint.listUsers(page: 2, perPage: 50, filter: "ci-").endpoint(base: url).url
/// // http://127.0.0.1:54321/auth/v1/admin/users?page=2&per_page=50&filter=ci-
/// ```
/// The provider sends them with the service key (`apikey`, and a legacy JWT key as the bearer
/// too); never with a user's session.
public enum AdminEndpoint: Sendable, Hashable {
  /// `GET /admin/users`: `filter` is GoTrue's substring match on the email (and full name).
  case listUsers(page: Int?, perPage: Int?, filter: String?)
  /// `GET /admin/users/{id}`.
  case user(id: String)
  /// `POST /admin/users` with GoTrue's `AdminUserParams` (`email`, `password`,
  /// `email_confirm`, `user_metadata`, `app_metadata`, ...).
  case createUser(attributes: JSONObject)
  /// `PUT /admin/users/{id}`: the members given, as written.
  case updateUser(id: String, attributes: JSONObject)
  /// `DELETE /admin/users/{id}`; `soft` keeps the row (`should_soft_delete`).
  case deleteUser(id: String, soft: Bool)
  /// `POST /admin/generate_link`: `type` is `magiclink`, `recovery`, `invite` or `signup`
  /// (which needs a password).
  case generateLink(type: String, email: String, password: String?, data: JSONValue?)
  /// `POST /invite`.
  case invite(email: String, data: JSONValue?)
  /// `GET /inbox/v1/messages?to=...&limit=...`: the mails the local project would have sent,
  /// newest first. Hosted projects have no such route (404).
  case inbox(address: String, limit: Int)

  /// The path under the project URL.
  public var path: String {
    switch self {
    case .listUsers, .createUser: "/auth/v1/admin/users"
    case .user(let id), .updateUser(let id, _), .deleteUser(let id, _):
      "/auth/v1/admin/users/" + Endpoint.encodePathSegment(id)
    case .generateLink: "/auth/v1/admin/generate_link"
    case .invite: "/auth/v1/invite"
    case .inbox: "/inbox/v1/messages"
    }
  }

  public var method: HTTPMethod {
    switch self {
    case .listUsers, .user, .inbox: .get
    case .createUser, .generateLink, .invite: .post
    case .updateUser: .put
    case .deleteUser: .delete
    }
  }

  /// The JSON body; nil for none.
  public var body: JSONValue? {
    switch self {
    case .listUsers, .user, .inbox: return nil
    case .createUser(let attributes), .updateUser(_, let attributes): return .object(attributes)
    case .deleteUser(_, let soft): return ["should_soft_delete": .bool(soft)]
    case .generateLink(let type, let email, let password, let data):
      var object: JSONObject = ["type": .string(type), "email": .string(email)]
      if let password { object.append("password", .string(password)) }
      if let data { object.append("data", data) }
      return .object(object)
    case .invite(let email, let data):
      var object: JSONObject = ["email": .string(email)]
      if let data { object.append("data", data) }
      return .object(object)
    }
  }

  /// The query pairs, in order.
  public var query: [Endpoint.QueryItem] {
    switch self {
    case .listUsers(let page, let perPage, let filter):
      var items: [Endpoint.QueryItem] = []
      if let page { items.append(.init("page", String(page))) }
      if let perPage { items.append(.init("per_page", String(perPage))) }
      if let filter { items.append(.init("filter", filter)) }
      return items
    case .inbox(let address, let limit):
      return [.init("to", address), .init("limit", String(limit))]
    default:
      return []
    }
  }

  /// The request against the project at `base`.
  public func endpoint(base: String) -> Endpoint {
    var headers: HTTPHeaders = [:]
    if case .inbox = self {
    } else {
      headers["X-Supabase-Api-Version"] = AuthEndpoint.apiVersion
    }
    let body = self.body
    if body != nil { headers["Content-Type"] = "application/json" }
    var endpoint = Endpoint(
      baseURL: base, path: path, method: method, query: query, headers: headers,
      body: body.map { Data($0.serializedBytes()) })
    endpoint.answerShape = answerShape
    if answerShape != nil { endpoint.answerBody = .required }
    return endpoint
  }

  /// The JSON GoTrue answers with (its `/admin` routes; the local inbox): a user, with its `id`,
  /// a page of users with `users`, a link with `action_link`, the mails in an array; nil for a
  /// deletion, whose answer snm does not read.
  var answerShape: Endpoint.AnswerShape? {
    switch self {
    case .listUsers: .object("a page of users", with: "users")
    case .user, .createUser, .updateUser, .invite: .object("the user", with: "id")
    case .generateLink: .object("the link", with: "action_link")
    case .inbox: .array(of: "mails")
    case .deleteUser: nil
    }
  }
}
