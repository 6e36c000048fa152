import SNMGateway
import SNMWire

extension AuthGateway {
  /// `POST /otp` and `POST /magiclink`: a magic link (and its code) to a confirmed user; to an
  /// address with no confirmed user a sign-up (created when `create_user`, GoTrue's default) and
  /// its confirmation mail, or the magic link at once when e-mails need no confirmation.
  /// Answers `{}` either way. A phone goes to `AuthPhoneProvider.otp`.
  func otp(_ body: JSONValue, from client: String, magicLinkRoute: Bool) throws -> HTTPResponse {
    let email = body["email"]?.stringValue?.trimmingSpaces ?? ""
    let phone = body["phone"]?.stringValue ?? ""
    if magicLinkRoute {
      guard !email.isEmpty else {
        throw AuthFailure.validationFailed("Password recovery requires an email", status: 422)
      }
    } else {
      if !email.isEmpty && !phone.isEmpty {
        throw AuthFailure.validationFailed(
          "Only an email address or phone number should be provided")
      }
      if !phone.isEmpty {
        try limiter.admit(.signUp, from: client)
        return try AuthPhoneProvider(gateway: self).otp(
          body, phone: phone, metadata: try Self.metadata(body["data"], name: "data"))
      }
      guard !email.isEmpty else {
        throw AuthFailure.validationFailed("One of email or phone must be set")
      }
    }
    let pkce = try admitMail(to: email, body, from: client)
    let createUser = body["create_user"]?.boolValue ?? true
    let metadata = try Self.metadata(body["data"], name: "data")
    let redirectTo = body["redirect_to"]?.stringValue ?? body["email_redirect_to"]?.stringValue
    try inTransaction { connection in
      if let user = try AuthStore(connection).user(email: email) {
        let kind: AuthMailKind = user.emailConfirmedAt == nil ? .signup : .magiclink
        try sendMail(
          kind, to: user.email, userID: user.id, redirectTo: redirectTo, pkce: pkce,
          on: connection)
        return
      }
      guard createUser, settings.signupEnabled else {
        throw AuthFailure.otpSignupsDisabled
      }
      let id = try AuthStore(connection).insertUser(
        NewAuthUser(
          email: email, provider: "email", userMetadata: metadata,
          emailConfirmed: !settings.confirmEmail))
      try sendMail(
        settings.confirmEmail ? .signup : .magiclink, to: email, userID: id,
        redirectTo: redirectTo, pkce: pkce, on: connection)
    }
    return .json(status: 200, "{}")
  }

  /// `POST /recover`: a recovery mail to the address's user; `{}` whether or not there is one.
  func recover(_ body: JSONValue, from client: String) throws -> HTTPResponse {
    let email = body["email"]?.stringValue?.trimmingSpaces ?? ""
    guard !email.isEmpty else {
      throw AuthFailure.validationFailed("Password recovery requires an email")
    }
    let pkce = try admitMail(to: email, body, from: client)
    let redirectTo = body["redirect_to"]?.stringValue
    try inTransaction { connection in
      guard let user = try AuthStore(connection).user(email: email) else { return }
      try sendMail(
        .recovery, to: user.email, userID: user.id, redirectTo: redirectTo, pkce: pkce,
        on: connection)
    }
    return .json(status: 200, "{}")
  }

  /// GoTrue's checks before it mails a link, in its order: a plausible address, a whole PKCE
  /// challenge (nil: the implicit flow), the client within its sign-up limit.
  private func admitMail(
    to email: String, _ body: JSONValue, from client: String
  ) throws -> PKCEChallenge? {
    guard Self.isPlausibleEmail(email) else { throw AuthFailure.invalidEmail }
    let pkce = try PKCEChallenge(body)
    try limiter.admit(.signUp, from: client)
    return pkce
  }

  /// `POST /resend` `{"type": "signup"|"email_change", "email": ...}`: the pending mail again,
  /// with a new code (`{"type": "sms", "phone": ...}`: the text, `AuthPhoneProvider.resend`). `{}` also when
  /// nothing is pending (GoTrue tells no one).
  func resend(_ body: JSONValue, from client: String) throws -> HTTPResponse {
    let type = body["type"]?.stringValue ?? ""
    let email = body["email"]?.stringValue?.trimmingSpaces ?? ""
    let phone = body["phone"]?.stringValue ?? ""
    guard ["signup", "email_change", "sms", "phone_change"].contains(type) else {
      throw AuthFailure.validationFailed(
        "Missing one of these types: signup, email_change, sms, phone_change")
    }
    // GoTrue checks a mail's PKCE members right after the type.
    let pkce = type == "signup" || type == "email_change" ? try PKCEChallenge(body) : nil
    if email.isEmpty && type == "signup" {
      throw AuthFailure.validationFailed("Type provided requires an email address")
    }
    if phone.isEmpty && (type == "sms" || type == "phone_change") {
      throw AuthFailure.validationFailed("Type provided requires a phone number")
    }
    if !email.isEmpty && !phone.isEmpty {
      throw AuthFailure.validationFailed(
        "Only an email address or phone number should be provided.")
    }
    guard !email.isEmpty || !phone.isEmpty else {
      throw AuthFailure.validationFailed("Missing email address or phone number")
    }
    try limiter.admit(.signUp, from: client)
    if !phone.isEmpty {
      let phones = AuthPhoneProvider(gateway: self)
      guard type == "sms" else {
        // No phone change is ever pending here (`PUT /user` does not change phones): `{}`.
        guard settings.phoneEnabled else { return try phones.resend(phone: phone) }
        _ = try PhoneNumber.normalized(phone)
        return .json(status: 200, "{}")
      }
      return try phones.resend(phone: phone)
    }
    let redirectTo = body["redirect_to"]?.stringValue ?? body["email_redirect_to"]?.stringValue
    try inTransaction { connection in
      if type == "signup" {
        guard let user = try AuthStore(connection).user(email: email), user.emailConfirmedAt == nil
        else { return }
        try sendMail(
          .signup, to: user.email, userID: user.id, redirectTo: redirectTo, pkce: pkce,
          on: connection)
      } else {
        guard let user = try AuthStore(connection).user(pendingEmail: email) else { return }
        try sendEmailChange(
          user, to: user.newEmail, redirectTo: redirectTo, pkce: pkce, on: connection)
      }
    }
    return .json(status: 200, "{}")
  }

  /// `GET /reauthenticate`: a code to the signed-in user's address, the nonce `PUT /user` asks
  /// for a password change when the project wants it.
  func reauthenticate(_ request: HTTPRequest) throws -> HTTPResponse {
    let claims = try bearerClaims(request)
    try inTransaction { connection in
      let (user, _) = try tokenSubject(claims, on: connection)
      guard !user.email.isEmpty else {
        throw AuthFailure.validationFailed(
          "Reauthentication requires the user to have an email or a phone number")
      }
      guard user.emailConfirmedAt != nil else {
        throw AuthFailure(
          status: 422, code: "email_not_confirmed", message: "Please verify your email first.")
      }
      try sendMail(.reauthentication, to: user.email, userID: user.id, on: connection)
    }
    return .json(status: 200, "{}")
  }

  /// Records a pending e-mail change to `newEmail` and mails its codes: to the new address, and
  /// (with double confirmation, the default) to the current one.
  func sendEmailChange(
    _ user: AuthUserRow, to newEmail: String, redirectTo: String?, pkce: PKCEChallenge? = nil,
    on connection: PGConnection
  ) throws {
    try FlowTokenStore(connection).beginEmailChange(userID: user.id, to: newEmail)
    let change = (from: user.email, to: newEmail.lowercased())
    try sendMail(
      .emailChangeNew, to: newEmail, userID: user.id, redirectTo: redirectTo, change: change,
      pkce: pkce, on: connection)
    if settings.doubleConfirmChanges && !user.email.isEmpty {
      try sendMail(
        .emailChangeCurrent, to: user.email, userID: user.id, redirectTo: redirectTo,
        change: change, pkce: pkce, on: connection)
    }
  }
}
