import SNMGateway
import SNMWire

extension AuthAdminAPI {
  /// `POST /invite` (admin) `{"email", "data"}`: a new user marked invited, and the invite mail.
  /// A confirmed user at the address is 422 email_exists; an unconfirmed one is invited again.
  func invite(_ request: HTTPRequest) throws -> HTTPResponse {
    try gateway.requireAdmin(request)
    let body = try AuthGateway.body(request)
    let email = body["email"]?.stringValue?.trimmingSpaces ?? ""
    guard AuthGateway.isPlausibleEmail(email) else { throw AuthFailure.invalidEmail }
    let data = try AuthGateway.metadata(body["data"], name: "data")
    let redirectTo = request.queryValue("redirect_to") ?? body["redirect_to"]?.stringValue
    let user = try gateway.inTransaction { connection in
      let id = try invitedUser(email: email, data: data, on: connection)
      try gateway.sendMail(.invite, to: email, userID: id, redirectTo: redirectTo, on: connection)
      guard let user = try AuthStore(connection).user(id: id) else {
        throw AuthFailure.userNotFound
      }
      return user
    }
    return .json(status: 200, user.json)
  }

  /// The id of the user invited at `email`: made (with `invited_at`) when there is none.
  func invitedUser(email: String, data: JSONValue, on connection: PGConnection) throws -> String {
    if let existing = try AuthStore(connection).user(email: email) {
      guard existing.emailConfirmedAt == nil else { throw AuthFailure.emailExists }
      try AuthStore(connection).reinvite(userID: existing.id, metadata: data)
      return existing.id
    }
    return try AuthStore(connection).insertUser(
      NewAuthUser(email: email, provider: "email", userMetadata: data, invited: true))
  }

  /// `POST /admin/generate_link` `{"type", "email", "password", "data", "new_email",
  /// "redirect_to"}`: the link and code a mail of that type would carry, without sending it
  /// (GoTrue's answer: the user's fields, then action_link, email_otp, hashed_token,
  /// redirect_to, verification_type). A magic link for an unknown address signs it up.
  func generateLink(_ body: JSONValue) throws -> HTTPResponse {
    var type = body["type"]?.stringValue ?? ""
    let email = body["email"]?.stringValue?.trimmingSpaces ?? ""
    let newEmail = body["new_email"]?.stringValue?.trimmingSpaces ?? ""
    let data = try AuthGateway.metadata(body["data"], name: "data")
    let password = body["password"]?.stringValue
    let redirectTo = body["redirect_to"]?.stringValue
    let kinds: [String: AuthMailKind] = [
      "signup": .signup, "invite": .invite, "magiclink": .magiclink, "recovery": .recovery,
      "email_change_current": .emailChangeCurrent, "email_change_new": .emailChangeNew,
    ]
    guard kinds[type] != nil else {
      throw AuthFailure.validationFailed("Invalid email action link type requested: \(type)")
    }
    guard AuthGateway.isPlausibleEmail(email) else { throw AuthFailure.invalidEmail }
    if type.hasPrefix("email_change") && !AuthGateway.isPlausibleEmail(newEmail) {
      throw AuthFailure.invalidEmail
    }
    let (user, code, link) = try gateway.inTransaction { connection in
      var existing = try AuthStore(connection).user(email: email)
      if existing == nil {
        switch type {
        case "magiclink": type = "signup"
        case "recovery", "email_change_current", "email_change_new":
          throw AuthFailure(
            status: 404, code: "user_not_found", message: "User with this email not found")
        default: break
        }
      }
      let id: String
      switch type {
      case "invite":
        id = try invitedUser(email: email, data: data, on: connection)
      case "signup":
        if let existing {
          guard existing.emailConfirmedAt == nil else { throw AuthFailure.emailExists }
          id = existing.id
        } else {
          let secret = try password ?? Crypto.hex(try Crypto.randomBytes(16))
          if password != nil { try gateway.checkNewPassword(secret) }
          id = try AuthStore(connection).insertUser(
            NewAuthUser(email: email, password: secret, provider: "email", userMetadata: data))
        }
        existing = try AuthStore(connection).user(id: id)
      case "email_change_current", "email_change_new":
        guard let existing else { throw AuthFailure.adminUserNotFound }
        guard try !AuthStore(connection).isEmailTaken(newEmail) else {
          throw AuthFailure.emailExists
        }
        try FlowTokenStore(connection).noteEmailChange(userID: existing.id, to: newEmail)
        id = existing.id
      default:
        guard let existing else { throw AuthFailure.adminUserNotFound }
        id = existing.id
      }
      guard let kind = kinds[type] else { throw AuthFailure.notFound }
      let address = kind == .emailChangeNew ? newEmail : email
      let (code, link) = try gateway.sendMail(
        kind, to: address, userID: id, redirectTo: redirectTo, deliver: false, on: connection)
      guard let user = try AuthStore(connection).user(id: id) else {
        throw AuthFailure.userNotFound
      }
      return (user, code, link)
    }
    guard case .object(var members) = user.json else { throw AuthFailure.notFound }
    members.append("action_link", .optional(link))
    members.append("email_otp", .string(code.otp))
    members.append("hashed_token", .string(code.tokenHash))
    members.append("redirect_to", .string(gateway.settings.redirectURL(redirectTo)))
    members.append("verification_type", .string(type))
    return .json(status: 200, .object(members))
  }
}
