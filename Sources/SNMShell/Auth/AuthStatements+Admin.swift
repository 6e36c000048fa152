import Foundation
import SNMNetwork
import SNMQuery
import SNMSupabase
import SNMWire

extension AuthStatements {
  /// `admin ...` and `inbox`, with the service key.
  func performAdmin(_ call: AuthCall, admin: SupabaseAdminManager) async throws -> Answer {
    switch call {
    case .adminUsers(let page, let perPage, let filter):
      let listed = try await admin.listUsers(
        page: page, perPage: perPage, filter: filter?.serverFilter)
      let users = listed.users.filter { user in
        guard let filter else { return true }
        return filter.matches(user["email"]?.stringValue ?? "")
      }
      return Answer(value: .array(users), view: .array(users.map(Self.adminUserRow)))
    case .adminUser(let id):
      let user = try await admin.user(id: id)
      return Answer(value: user, view: Self.userView(user))
    case .adminCreateUser(let attributes):
      let user = try await admin.createUser(attributes)
      return Answer(value: user, view: Self.userView(user))
    case .adminUpdateUser(let id, let attributes):
      let user = try await admin.updateUser(id: id, attributes: attributes)
      return Answer(value: user, view: Self.userView(user))
    case .adminDeleteUser(let id, let soft):
      try await admin.deleteUser(id: id, soft: soft)
      return Answer(
        value: ["id": .string(id)], message: (soft ? "soft-deleted" : "deleted") + " user \(id)")
    case .adminLink(let type, let email, let password, let data):
      let link = try await admin.generateLink(
        type: type, email: email, password: password, data: data)
      var view = JSONObject()
      for key in ["action_link", "email_otp", "hashed_token", "verification_type", "redirect_to"] {
        view.append(key, link[key] ?? link["properties"]?[key] ?? .null)
      }
      view.append("user_id", link["id"] ?? .null)
      return Answer(value: .object(view), view: .object(view))
    case .adminInvite(let email, let data):
      let user = try await admin.invite(email: email, data: data)
      return Answer(value: user, view: Self.userView(user))
    case .inbox(let address):
      let mails = try await admin.inbox(address: address, limit: 1)
      guard let mail = mails.first else { throw InboxLookupError.empty(address) }
      var view = JSONObject()
      for key in ["to", "kind", "subject", "otp", "link", "sent_at"] {
        view.append(key, mail[key] ?? .null)
      }
      return Answer(value: mail, view: .object(view))
    default:
      throw AuthResponseError.malformed("not an admin statement")
    }
  }

  /// The columns `admin users` shows.
  static func adminUserRow(_ user: JSONValue) -> JSONValue {
    var row = JSONObject()
    for key in ["id", "email", "created_at", "last_sign_in_at", "email_confirmed_at"] {
      row.append(key, user[key] ?? .null)
    }
    row.append("is_anonymous", user["is_anonymous"] ?? false)
    return .object(row)
  }
}

/// `inbox` found no mail.
enum InboxLookupError: Error, Sendable, Equatable, CustomStringConvertible {
  case empty(String)

  var description: String {
    switch self {
    case .empty(let address): "no mail to \(address) in the local inbox"
    }
  }
}
