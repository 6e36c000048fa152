import SNMWire

extension AuthUserRow {
  /// GoTrue's user object (`models/user.go`), its fields in GoTrue's order.
  var json: JSONValue {
    let user = self
    var members: [JSONObject.Member] = [
      .init("id", .string(user.id)), .init("aud", .string("authenticated")),
      .init("role", .string("authenticated")), .init("email", .string(user.email)),
    ]
    func optional(_ name: String, _ value: String?) {
      if let value { members.append(.init(name, .string(value))) }
    }
    optional("email_confirmed_at", user.emailConfirmedAt)
    members.append(.init("phone", .string(user.phone)))
    optional("phone_confirmed_at", user.phoneConfirmedAt)
    optional("confirmation_sent_at", user.confirmationSentAt)
    optional("confirmed_at", user.emailConfirmedAt ?? user.phoneConfirmedAt)
    optional("recovery_sent_at", user.recoverySentAt)
    if !user.newEmail.isEmpty { members.append(.init("new_email", .string(user.newEmail))) }
    optional("email_change_sent_at", user.emailChangeSentAt)
    optional("reauthentication_sent_at", user.reauthenticationSentAt)
    optional("invited_at", user.invitedAt)
    optional("last_sign_in_at", user.lastSignInAt)
    var identities: [JSONValue] = []
    // The identity of the provider the user signed up with: e-mail, else the phone.
    let byPhone = user.email.isEmpty && !user.phone.isEmpty
    // A user an external provider made (app_metadata.provider "apple") has only its identities.
    let provider = user.appMetadata["provider"]?.stringValue ?? "email"
    let external = provider != "email" && provider != "phone"
    if !user.isAnonymous, !external, !user.email.isEmpty || byPhone {
      let data: [JSONObject.Member] =
        byPhone
        ? [
          .init("email_verified", .bool(false)), .init("phone", .string(user.phone)),
          .init("phone_verified", .bool(user.phoneConfirmedAt != nil)),
          .init("sub", .string(user.id)),
        ]
        : [
          .init("email", .string(user.email)),
          .init("email_verified", .bool(user.emailConfirmedAt != nil)),
          .init("phone_verified", .bool(false)), .init("sub", .string(user.id)),
        ]
      identities.append(
        .object([
          .init("identity_id", .string(user.id)), .init("id", .string(user.id)),
          .init("user_id", .string(user.id)),
          .init("identity_data", .object(data)),
          .init("provider", .string(byPhone ? "phone" : "email")),
          .init("last_sign_in_at", .optional(user.lastSignInAt)),
          .init("created_at", .string(user.createdAt)),
          .init("updated_at", .string(user.updatedAt)),
          .init("email", .string(user.email)),
        ]))
    }
    identities += user.linkedIdentities
    members += [.init("app_metadata", user.appMetadata), .init("user_metadata", user.userMetadata)]
    if !user.factors.isEmpty { members.append(.init("factors", .array(user.factors))) }
    members.append(.init("identities", .array(identities)))
    optional("banned_until", user.bannedUntil)
    members += [
      .init("created_at", .string(user.createdAt)), .init("updated_at", .string(user.updatedAt)),
    ]
    optional("deleted_at", user.deletedAt)
    members.append(.init("is_anonymous", .bool(user.isAnonymous)))
    return .object(members)
  }
}
