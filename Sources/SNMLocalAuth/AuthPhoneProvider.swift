import SNMGateway
import SNMWire

/// The phone provider, as GoTrue's `internal/api/phone.go` with no SMS provider behind it: the text
/// goes to the local inbox (kind `sms`, to the number's digits), except for a number with a test
/// code (`--sms-test-otp`), which is texted nothing, as GoTrue's `SMS_TEST_OTP`.
///
/// ```swift
/// return try AuthPhoneProvider(gateway: self).otp(body, phone: phone, metadata: metadata)
/// ```
struct AuthPhoneProvider {
  let gateway: AuthGateway
  var settings: AuthSettings { gateway.settings }

  /// GoTrue's answer to a request that texted a code: its `message_id`, or `{}` when none went.
  static func textAnswer(_ messageID: String?) -> HTTPResponse {
    guard let messageID else { return .json(status: 200, "{}") }
    return .json(status: 200, .object([.init("message_id", .string(messageID))]))
  }

  /// Texts `user` a confirmation code for `phone` (digits): its hash goes to
  /// `confirmation_token` (GoTrue's `GenerateTokenHash(phone, otp)`), the text to the inbox.
  /// Refused within `smsMaxFrequency` seconds of the last one (429 over_sms_send_rate_limit, as
  /// GoTrue checks it also for test numbers). Returns the message id GoTrue's SMS providers
  /// answer: the inbox message's, or `test-otp`.
  @discardableResult
  func sendText(to user: AuthUserRow, phone: String, on connection: PGConnection) throws -> String {
    let codes = FlowTokenStore(connection)
    if let wait = try codes.secondsUntilNextText(
      userID: user.id, frequency: settings.smsMaxFrequency)
    {
      throw AuthFailure(
        status: 429, code: "over_sms_send_rate_limit",
        message: "For security purposes, you can only request this after \(max(wait, 1)) seconds.")
    }
    let testCode = settings.smsTestOTPs[phone]
    let otp = try testCode ?? OneTimeCode.newOTP()
    let hash = try OneTimeCode.hash(address: phone, otp: otp)
    try codes.setPhoneCode(userID: user.id, hash: hash)
    if testCode != nil { return "test-otp" }
    return try InboxStore(connection).deliverText(
      to: phone, otp: otp, tokenHash: hash, body: "Your code is \(otp)")
  }

  /// `POST /signup` with a phone: a new user with that number and the password; its code is
  /// texted when the project confirms phones (the answer is the user), else it signs in.
  func signup(_ body: JSONValue, phone written: String, metadata: JSONValue) throws
    -> HTTPResponse
  {
    // GoTrue's order: the password, then the provider, then the number.
    guard let password = body["password"]?.stringValue, !password.isEmpty else {
      throw AuthFailure.passwordRequired
    }
    try gateway.checkNewPassword(password)
    guard settings.phoneEnabled else {
      throw AuthFailure.phoneProviderDisabled("Phone signups are disabled")
    }
    let phone = try PhoneNumber.normalized(written)
    do {
      return try gateway.inTransaction { connection in
        if let user = try AuthStore(connection).user(phone: phone) {
          guard user.phoneConfirmedAt == nil else {
            // GoTrue tells when any provider autoconfirms, and hides it otherwise.
            if !settings.confirmPhone || !settings.confirmEmail {
              throw AuthFailure.userAlreadyExists
            }
            return .json(status: 200, AuthGateway.obfuscatedUser(phone: phone, metadata: metadata))
          }
          // As GoTrue: the claimed identity is not updated, only texted again.
          try confirmNewUser(user, phone: phone, on: connection)
          return .json(status: 200, try signupAnswer(user.id, on: connection))
        }
        let id = try AuthStore(connection).insertUser(
          NewAuthUser(
            phone: phone, password: password, provider: "phone", userMetadata: metadata))
        guard let user = try AuthStore(connection).user(id: id) else {
          throw PGError(kind: .client, message: "no user id")
        }
        try confirmNewUser(user, phone: phone, on: connection)
        return .json(status: 200, try signupAnswer(id, on: connection))
      }
    } catch let error as PGError where error.sqlState == "23505" {
      throw AuthFailure.userAlreadyExists
    }
  }

  /// A phone user not yet confirmed: confirmed at once (no `--confirm-phone`), else texted.
  func confirmNewUser(_ user: AuthUserRow, phone: String, on connection: PGConnection)
    throws
  {
    if settings.confirmPhone {
      try sendText(to: user, phone: phone, on: connection)
    } else {
      try AuthStore(connection).confirmPhone(userID: user.id)
    }
  }

  /// A session for a confirmed phone user, else the user (waiting for the texted code).
  func signupAnswer(_ id: String, on connection: PGConnection) throws -> JSONValue {
    guard let user = try AuthStore(connection).user(id: id) else { throw AuthFailure.userNotFound }
    guard user.phoneConfirmedAt != nil else { return user.json }
    try AuthStore(connection).recordSignIn(userID: id)
    return try gateway.createSession(userID: id, method: "password", on: connection)
  }

  /// `POST /otp` with a phone (GoTrue's `SmsOtp`): a code texted to the number's user; a number
  /// with no confirmed user signs up first (with `create_user`, GoTrue's default) and, unless
  /// the project confirms phones, is confirmed and texted at once. Answers `{"message_id"}`,
  /// or `{}` when the sign-up's own text went.
  func otp(_ body: JSONValue, phone written: String, metadata: JSONValue) throws
    -> HTTPResponse
  {
    let phone = try PhoneNumber.normalized(written)
    let createUser = body["create_user"]?.boolValue ?? true
    let messageID: String? = try gateway.inTransaction { connection in
      var user = try AuthStore(connection).user(phone: phone)
      if user == nil && !createUser {
        throw AuthFailure.otpSignupsDisabled
      }
      guard settings.phoneEnabled else {
        throw AuthFailure.phoneProviderDisabled("Unsupported phone provider")
      }
      if user == nil || user?.phoneConfirmedAt == nil {
        guard settings.signupEnabled else { throw AuthFailure.signupDisabled }
        if user == nil {
          let id = try AuthStore(connection).insertUser(
            NewAuthUser(phone: phone, provider: "phone", userMetadata: metadata))
          user = try AuthStore(connection).user(id: id)
        }
        guard let pending = user else { throw AuthFailure.userNotFound }
        if settings.confirmPhone {
          try sendText(to: pending, phone: phone, on: connection)
          return nil
        }
        try AuthStore(connection).confirmPhone(userID: pending.id)
      }
      guard let confirmed = user else { throw AuthFailure.userNotFound }
      return try sendText(to: confirmed, phone: phone, on: connection)
    }
    return Self.textAnswer(messageID)
  }

  /// `POST /resend` `{"type": "sms", "phone": ...}`: the confirmation code again to a user who
  /// has not confirmed the number; `{}` when there is none (GoTrue tells no one).
  func resend(phone written: String) throws -> HTTPResponse {
    guard settings.phoneEnabled else {
      throw AuthFailure.phoneLoginsDisabled
    }
    let phone = try PhoneNumber.normalized(written)
    let messageID: String? = try gateway.inTransaction { connection in
      guard let user = try AuthStore(connection).user(phone: phone), user.phoneConfirmedAt == nil
      else { return nil }
      return try sendText(to: user, phone: phone, on: connection)
    }
    return Self.textAnswer(messageID)
  }

  /// `POST /verify` `{"type": "sms", "phone", "token"}`: the texted (or test) code, within
  /// `smsOTPExpiry`; confirms the number and signs in.
  func verify(phone written: String, token: String) throws -> JSONValue {
    let phone = try PhoneNumber.normalized(written)
    let outcome: Result<JSONValue, AuthFailure> = try gateway.inTransaction { connection in
      guard let user = try AuthStore(connection).user(phone: phone) else {
        return .failure(AuthFailure.otpExpired)
      }
      if user.isBanned { throw AuthFailure.userBanned }
      let isTestCode = settings.smsTestOTPs[phone] == token
      if !isTestCode {
        let hash = try OneTimeCode.hash(address: phone, otp: token)
        guard
          try FlowTokenStore(connection).isPhoneCodeValid(
            userID: user.id, hash: hash, expiry: settings.smsOTPExpiry)
        else {
          // Counted whatever the address: a few wrong codes spend the one sent.
          try AuthStore(connection).recordWrongCode(userID: user.id)
          return .failure(AuthFailure.otpExpired)
        }
      }
      try AuthStore(connection).forgetWrongCodes(userID: user.id)
      try FlowTokenStore(connection).confirmPhoneSignIn(userID: user.id)
      return .success(try gateway.createSession(userID: user.id, method: "otp", on: connection))
    }
    return try outcome.get()
  }

  /// The password grant with a phone: GoTrue's checks (provider on, credentials, ban, a
  /// confirmed number).
  func passwordGrant(phone written: String, password: String?) throws -> JSONValue {
    guard settings.phoneEnabled else {
      throw AuthFailure.phoneProviderDisabled("Phone logins are disabled", status: 422)
    }
    // GoTrue formats the number without checking it here: a bad one matches no user.
    return try gateway.signIn(
      .phone(PhoneNumber.digits(written)), password: password, unconfirmed: .phoneNotConfirmed)
  }
}
