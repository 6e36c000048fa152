import SNMGateway
import SNMWire

extension AuthGateway {
  /// `PUT /user`: `data` (merged into user_metadata; a null removes a key), `email` (a pending
  /// change and its mails; at once for an anonymous user when e-mails need no confirmation),
  /// `password` (with `nonce` from `/reauthenticate` when `securePasswordChange` is on and the
  /// session is older than 24 hours, as GoTrue; a nonce given is always checked). Answers the
  /// user. With a verified factor, changing e-mail or password needs an aal2 session.
  func updateUser(_ request: HTTPRequest, body: JSONValue) throws -> HTTPResponse {
    let claims = try bearerClaims(request)
    try limiter.admit(.signUp, from: request.remoteAddress)
    let email = body["email"]?.stringValue?.trimmingSpaces ?? ""
    let phone = body["phone"]?.stringValue ?? ""
    let password = body["password"]?.stringValue
    let nonce = body["nonce"]?.stringValue ?? ""
    let data = body["data"]
    if let data, data.objectValue == nil, !data.isNull {
      throw AuthFailure(
        status: 400, code: "bad_json", message: "Could not parse request body as JSON: data")
    }
    if let data, !data.isNull { try AuthMetadataBound.check(data, name: "data") }
    if body["app_metadata"] != nil {
      throw AuthFailure(
        status: 403, code: "not_admin",
        message: "Updating app_metadata requires admin privileges")
    }
    if !email.isEmpty && !Self.isPlausibleEmail(email) { throw AuthFailure.invalidEmail }
    if !phone.isEmpty {
      throw AuthFailure(
        status: 400, code: "phone_provider_disabled", message: "Phone logins are disabled")
    }
    // A present password is checked whatever its value (GoTrue's checkPasswordStrength): an
    // empty one is weak, never a password of its own.
    if let password { try checkNewPassword(password) }
    let redirectTo = request.queryValue("redirect_to") ?? body["email_redirect_to"]?.stringValue
    let user: AuthUserRow
    do {
      user = try inTransaction { connection in
        let (user, sessionID) = try tokenSubject(claims, on: connection)
        let changesEmail = !email.isEmpty && email.lowercased() != user.email.lowercased()
        let session = try connection.execute(
          "select aal, (created_at < now() - interval '24 hours')::text from auth.sessions "
            + "where id::text = $1", [sessionID ?? ""])
        let aal = session.rows.first?[0] ?? "aal1"
        let hasVerifiedFactor = user.factors.contains { $0["status"]?.stringValue == "verified" }
        if hasVerifiedFactor && aal != "aal2" && (changesEmail || password != nil) {
          throw AuthFailure(
            status: 401, code: "insufficient_aal",
            message: "AAL2 session is required to update email or password when MFA is enabled.")
        }
        if user.isAnonymous && password != nil && email.isEmpty {
          throw AuthFailure(
            status: 422, code: "validation_failed",
            message:
              "Updating password of an anonymous user without an email or phone is not allowed")
        }
        if changesEmail {
          let taken = try connection.execute(
            "select 1 from auth.users where lower(email) = lower($1) and id <> $2::uuid",
            [email, user.id])
          guard taken.rows.isEmpty else { throw AuthFailure.emailExists }
        }
        if let password {
          let stale = session.rows.first?[1] != "false"
          if settings.securePasswordChange && stale && nonce.isEmpty {
            throw AuthFailure.reauthenticationNeeded
          }
          if !nonce.isEmpty { try useNonce(nonce, user: user, on: connection) }
          let same = try connection.execute(
            "select 1 from auth.users where id = $1::uuid and encrypted_password is not null "
              + "and encrypted_password = extensions.crypt($2, encrypted_password)",
            [user.id, password])
          guard same.rows.isEmpty else { throw AuthFailure.samePassword }
          _ = try connection.execute(
            "update auth.users set encrypted_password = extensions.crypt($2, "
              + "extensions.gen_salt('bf', \(AuthSettings.bcryptCost))), updated_at = now() "
              + "where id = $1::uuid", [user.id, password])
          // GoTrue signs the user out everywhere else when the password changes.
          _ = try connection.execute(
            "delete from auth.sessions where user_id = $1::uuid and id::text <> $2",
            [user.id, sessionID ?? ""])
        }
        if let data, let object = data.objectValue {
          let removed = object.filter { $0.value.isNull }.map { JSONValue.string($0.key) }
          _ = try connection.execute(
            "update auth.users set raw_user_meta_data = (raw_user_meta_data || $2::jsonb) "
              + "- array(select jsonb_array_elements_text($3::jsonb)), updated_at = now() "
              + "where id = $1::uuid",
            [user.id, data.serialized(), JSONValue.array(removed).serialized()])
          try AuthMetadataBound.checkStored(user.id, on: connection)
        }
        if changesEmail {
          if user.isAnonymous && !settings.confirmEmail {
            _ = try connection.execute(
              "update auth.users set email = lower($2), email_confirmed_at = now(), "
                + #"is_anonymous = false, raw_app_meta_data = raw_app_meta_data || "#
                + #"'{"provider":"email","providers":["email"]}', updated_at = now() "#
                + "where id = $1::uuid", [user.id, email])
          } else {
            try sendEmailChange(user, to: email, redirectTo: redirectTo, on: connection)
          }
        }
        guard let updated = try AuthStore(connection).user(id: user.id) else {
          throw AuthFailure.userNotFound
        }
        return updated
      }
    } catch let failure as AuthFailure where failure.code == "reauthentication_not_valid" {
      // A wrong nonce counts as a wrong code (the change itself rolled back): a few spend it.
      if let id = claims["sub"]?.stringValue {
        try inTransaction { connection in try AuthStore(connection).recordWrongCode(userID: id) }
      }
      throw failure
    }
    return .json(status: 200, userJSON(user))
  }

  /// Checks and uses up the code of a reauthentication mail (GoTrue's `verifyReauthentication`).
  func useNonce(_ nonce: String, user: AuthUserRow, on connection: PGConnection) throws {
    let hash = try Self.tokenHash(address: user.email.lowercased(), otp: nonce)
    let used = try connection.execute(
      "update auth.users set reauthentication_token = '' where id = $1::uuid "
        + "and reauthentication_token = $2 and reauthentication_token <> '' "
        + "and reauthentication_sent_at > now() - make_interval(secs => $3::int) returning 1",
      [user.id, hash, String(settings.otpExpiry)])
    guard !used.rows.isEmpty else {
      throw AuthFailure(
        status: 422, code: "reauthentication_not_valid",
        message: "Nonce has expired or is invalid")
    }
  }
}
