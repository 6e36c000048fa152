import SNMWire

extension AuthGateway {
  /// `POST /signup`: `{}` (no email, no phone) signs in anonymously; else email + password.
  /// Each kind has its own rate limit per client address (`client`).
  func signup(_ body: JSONValue, from client: String) throws -> HTTPResponse {
    let email = body["email"]?.stringValue?.trimmingSpaces ?? ""
    let phone = body["phone"]?.stringValue ?? ""
    let metadata = body["data"].flatMap { $0.objectValue != nil ? $0 : nil } ?? .object([])
    try limiter.admit(email.isEmpty && phone.isEmpty ? .anonymous : .signUp, from: client)
    if email.isEmpty && phone.isEmpty {
      let session = try inTransaction { connection in
        let created = try connection.execute(
          "insert into auth.users (is_anonymous, raw_user_meta_data, last_sign_in_at) "
            + "values (true, $1::jsonb, now()) returning id::text", [metadata.serialized()])
        guard let id = created.scalar else { throw PGError(kind: .client, message: "no user id") }
        return try createSession(userID: id, method: "anonymous", on: connection)
      }
      return .json(status: 200, session)
    }
    guard phone.isEmpty || !email.isEmpty else {
      throw AuthFailure(
        status: 422, code: "phone_provider_disabled", message: "Phone signups are disabled")
    }
    guard Self.isPlausibleEmail(email) else { throw AuthFailure.invalidEmail }
    guard let password = body["password"]?.stringValue, !password.isEmpty else {
      throw AuthFailure.passwordRequired
    }
    guard password.utf8.count <= AuthSettings.maximumPasswordBytes else {
      throw AuthFailure.passwordTooLong
    }
    guard !password.utf8.contains(0) else { throw AuthFailure.passwordHasNUL }
    guard password.count >= settings.minimumPasswordLength else {
      throw AuthFailure.weakPassword(minimum: settings.minimumPasswordLength)
    }
    do {
      let session = try inTransaction { connection in
        let existing = try connection.execute(
          "select 1 from auth.users where lower(email) = lower($1)", [email])
        guard existing.rows.isEmpty else { throw AuthFailure.userAlreadyExists }
        let created = try connection.execute(
          "insert into auth.users (email, encrypted_password, email_confirmed_at, "
            + "raw_app_meta_data, raw_user_meta_data, last_sign_in_at) values (lower($1), "
            + "extensions.crypt($2, extensions.gen_salt('bf', \(AuthSettings.bcryptCost))), now(), "
            + #"'{"provider":"email","providers":["email"]}', $3::jsonb, now()) returning id::text"#,
          [email, password, metadata.serialized()])
        guard let id = created.scalar else { throw PGError(kind: .client, message: "no user id") }
        return try createSession(userID: id, method: "password", on: connection)
      }
      return .json(status: 200, session)
    } catch let error as PGError where error.sqlState == "23505" {
      // Another sign-up with this e-mail committed between the check and the insert.
      throw AuthFailure.userAlreadyExists
    }
  }

  /// `local@domain.tld`, no spaces, one `@`: what GoTrue's format check accepts in practice.
  static func isPlausibleEmail(_ email: String) -> Bool {
    let parts = email.split(separator: "@", omittingEmptySubsequences: false)
    guard parts.count == 2, !parts[0].isEmpty, parts[1].contains("."), email.count <= 255,
      !email.contains(where: { $0.isWhitespace || $0.asciiValue.map { $0 < 0x20 } == true })
    else { return false }
    return !parts[1].hasPrefix(".") && !parts[1].hasSuffix(".")
  }
}
