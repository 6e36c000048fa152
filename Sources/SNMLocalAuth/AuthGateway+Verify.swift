import SNMGateway
import SNMWire

/// What a verification did: a session, or (the first half of a doubly confirmed e-mail change)
/// only accepted the link.
enum VerifyOutcome {
  case session(JSONValue)
  case halfConfirmed
  /// A PKCE flow's link: the auth code its client exchanges with its verifier.
  case authCode(String)
}

extension AuthGateway {
  static let verifyTypes = [
    "signup", "invite", "magiclink", "recovery", "email_change", "email", "sms", "phone_change",
  ]

  static let halfConfirmedMessage =
    "Confirmation link accepted. Please proceed to confirm link sent to the other email"

  /// `POST /verify`: `{type, token, email}` or `{type, token_hash}`; signs the user in.
  func verifyPost(_ body: JSONValue, from client: String) throws -> HTTPResponse {
    let type = body["type"]?.stringValue ?? ""
    let token = body["token"]?.stringValue ?? ""
    let tokenHash = body["token_hash"]?.stringValue ?? ""
    let email = body["email"]?.stringValue?.trimmingSpaces ?? ""
    let phone = body["phone"]?.stringValue ?? ""
    guard !type.isEmpty else {
      throw AuthFailure.verifyTypeMissing
    }
    guard !token.isEmpty || !tokenHash.isEmpty else {
      throw AuthFailure.validationFailed("Verify requires either a token or a token hash")
    }
    if !token.isEmpty {
      if !email.isEmpty && !phone.isEmpty || email.isEmpty && phone.isEmpty {
        throw AuthFailure.validationFailed(
          "Only an email address or phone number should be provided on verify")
      }
      if !email.isEmpty && !Self.isPlausibleEmail(email) {
        throw AuthFailure.validationFailed("Invalid email format", status: 422)
      }
    } else if !email.isEmpty || !phone.isEmpty {
      throw AuthFailure.validationFailed("Only the token_hash and type should be provided")
    }
    guard Self.verifyTypes.contains(type) else {
      throw AuthFailure.verifyTypeUnsupported
    }
    if !phone.isEmpty && !PhoneNumber.isE164(phone) {
      throw AuthFailure.invalidPhone
    }
    try limiter.admit(.verify, from: client)
    if type == "sms" && !phone.isEmpty && !token.isEmpty {
      return .json(
        status: 200, try AuthPhoneProvider(gateway: self).verify(phone: phone, token: token))
    }
    // No phone change is ever pending (`PUT /user` changes no phone), nor another code for one.
    if type == "sms" || type == "phone_change" || !phone.isEmpty { throw AuthFailure.otpExpired }
    // A PKCE flow's token hash verifies as its own: POST answers with a session either way.
    let hash =
      token.isEmpty
      ? String(tokenHash.trimmingPrefix(PKCEChallenge.tokenPrefix))
      : try OneTimeCode.hash(address: email.lowercased(), otp: token)
    switch try verify(type: type, hash: hash, email: token.isEmpty ? nil : email) {
    case .session(let session): return .json(status: 200, session)
    case .authCode: throw AuthFailure.flowStateNotFound
    case .halfConfirmed:
      return .json(
        status: 200,
        .object([.init("msg", .string(Self.halfConfirmedMessage)), .init("code", .string("200"))]))
    }
  }

  /// `GET /verify?token=HASH&type=TYPE&redirect_to=URL`, the mailed link: 303 to `redirect_to`
  /// (or the site URL) with the session in the fragment, as GoTrue's implicit flow, or (a
  /// `pkce_` token) with `?code=` for the client to exchange; a failure goes there too, as
  /// `error`, `error_code` and `error_description`.
  func verifyGet(_ request: HTTPRequest) throws -> HTTPResponse {
    let type = request.queryValue("type") ?? ""
    let token = request.queryValue("token") ?? ""
    let isPKCE = token.hasPrefix(PKCEChallenge.tokenPrefix)
    let hash = String(token.trimmingPrefix(PKCEChallenge.tokenPrefix))
    guard !type.isEmpty else {
      throw AuthFailure.verifyTypeMissing
    }
    guard !token.isEmpty else {
      throw AuthFailure.validationFailed("Verify requires a token or a token hash")
    }
    guard ["signup", "invite", "magiclink", "recovery", "email_change"].contains(type) else {
      throw AuthFailure.verifyTypeUnsupported
    }
    try limiter.admit(.verify, from: request.remoteAddress)
    let target = settings.redirectURL(request.queryValue("redirect_to"))
    let fragment: [(String, String)]
    do {
      switch try verify(type: type, hash: hash, email: nil, pkce: isPKCE) {
      case .authCode(let code):
        return AuthRedirect.seeOther(AuthRedirect.adding([("code", code)], toQueryOf: target))
      case .session(let session):
        fragment = AuthRedirect.sessionItems(session, [("type", type)])
      case .halfConfirmed:
        fragment = [("message", Self.halfConfirmedMessage), ("sb", "")]
      }
    } catch let failure as AuthFailure where failure.status < 500 {
      let error = failure.status == 403 ? "access_denied" : "invalid_request"
      let items = [
        ("error", error), ("error_code", failure.code), ("error_description", failure.message),
      ]
      return AuthRedirect.seeOther(AuthRedirect.errorLocation(items, target: target))
    }
    return AuthRedirect.seeOther(AuthRedirect.withFragment(fragment, target: target))
  }

  /// Finds the user whose pending code of `type` has hash `hash` (and, for a code sent with
  /// the address, whose address is `email`), still within its validity, uses the code up and
  /// does what it confirms; returns a new session (for a PKCE flow's link, `pkce`, the flow's
  /// auth code instead: GoTrue's 400 flow_state_not_found when the user has no flow state).
  func verify(type: String, hash: String, email: String?, pkce: Bool = false) throws
    -> VerifyOutcome
  {
    let outcome: Result<VerifyOutcome, AuthFailure> = try inTransaction { connection in
      let store = AuthStore(connection)
      let codes = FlowTokenStore(connection)
      guard
        let found = try codes.pendingCode(
          type: type, hash: hash, email: email, expiry: settings.otpExpiry)
      else {
        guard let email else { return .failure(AuthFailure.linkExpired) }
        // Counted whatever the client's address: a few wrong codes spend the one sent.
        try store.recordWrongCode(address: email)
        return .failure(AuthFailure.otpExpired)
      }
      try store.forgetWrongCodes(userID: found.userID)
      if try store.isBanned(userID: found.userID) { throw AuthFailure.userBanned }
      switch found.type {
      case "signup", "invite":
        try codes.useConfirmationCode(userID: found.userID)
      case "magiclink", "recovery":
        try codes.useRecoveryCode(userID: found.userID)
      default:  // email_change
        let state = try codes.emailChangeState(userID: found.userID, hash: hash)
        // Both addresses' codes, whether or not new users confirm their address (GoTrue takes
        // one code when it autoconfirms: a stolen session would move the account).
        if settings.doubleConfirmChanges, let state, state.isUnconfirmed, state.hasEmail {
          try codes.confirmHalfOfEmailChange(
            userID: found.userID, currentAddress: state.isCurrentAddressCode)
          return .success(.halfConfirmed)
        }
        try codes.completeEmailChange(userID: found.userID)
      }
      if pkce {
        let method = PKCEChallenge.method(verifyType: found.type)
        guard
          let code = try FlowStateStore(connection).issueAuthCode(
            userID: found.userID, method: method)
        else {
          throw AuthFailure(
            status: 400, code: "flow_state_not_found",
            message: "No associated flow state found. No valid flow state found for user.")
        }
        return .success(.authCode(code))
      }
      try store.recordSignIn(userID: found.userID)
      let method = found.type == "recovery" ? "recovery" : "otp"
      return .success(
        .session(try createSession(userID: found.userID, method: method, on: connection)))
    }
    return try outcome.get()
  }
}
