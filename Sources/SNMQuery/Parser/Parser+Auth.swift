/// The account, MFA, admin and inbox statements, and `as service <statement>`. Their words are
/// matched as words (any case), so they stay free as names everywhere else.
extension Parser {
  /// The words that start one of these statements.
  static let authWords = ["user", "verify", "resend", "mfa", "admin", "inbox", "as"]
  /// Those `let name = ...` takes (statements whose answer can be bound).
  static let bindableAuthWords = ["user", "verify", "mfa", "admin", "inbox", "as"]

  /// Whether `token` is the word `word` (any case).
  func isWord(_ token: Token, _ word: String) -> Bool {
    token.kind == .word && source.spells(token.range, lowercased: word)
  }

  /// `login otp ...` or `login magic ...`.
  var isLoginByMail: Bool { isWord(peek(), "otp") || isWord(peek(), "magic") }

  mutating func parseAuthStatement() throws(ParseFailure) -> Statement.Kind {
    let word = text(current).lowercased()
    advance()
    switch word {
    case "user": return .auth(try parseUser())
    case "verify": return .auth(try parseVerify())
    case "resend": return .auth(try parseResend())
    case "mfa": return .auth(try parseMFA())
    case "admin": return .auth(.admin(try parseAdmin()))
    case "inbox":
      return .auth(.inbox(address: try parseEmail(after: "'inbox'")))
    default:
      return try parseAsService()
    }
  }

  /// An address: a string, a variable, or a bare `kim@example.com`.
  mutating func parseEmail(after: @autoclosure () -> String) throws(ParseFailure) -> ValueNode {
    try parseCredential(after: after(), what: "an email address in quotes")
  }

  /// A secret: a string or a variable (`$env.NEW_PASSWORD`).
  mutating func parseSecret(after: @autoclosure () -> String, what: String) throws(ParseFailure)
    -> ValueNode
  {
    try parseCredential(after: after(), what: what)
  }

  mutating func parseUser() throws(ParseFailure) -> AuthStatement {
    switch try parseChoice(["show", "update", "reauthenticate"], after: "'user'") {
    case "show": return .userShow
    case "reauthenticate": return .reauthenticate
    default: break
    }
    var update = UserUpdate()
    while true {
      record(.symbol(.leftBrace))
      recordKeywords(["email", "password", "nonce"])
      if current.kind == .leftBrace, update.body == nil {
        update.body = try parseObject()
      } else if eat(.email) != nil, update.email == nil {
        update.email = try parseEmail(after: "'email'")
      } else if eat(.password) != nil, update.password == nil {
        update.password = try parseSecret(
          after: "'password'", what: "the new password in quotes or $env.NAME")
      } else if update.password != nil, update.nonce == nil, eatWord("nonce") {
        update.nonce = try parseSecret(after: "'nonce'", what: "the code in quotes or a variable")
      } else {
        break
      }
    }
    guard !update.values.isEmpty else {
      throw expectedFailure(
        "{...}, 'email' or 'password'", after: "'user update'",
        help: #"as in 'user update {"nick": "kim"}' or 'user update password $env.NEW'"#)
    }
    return .userUpdate(update)
  }

  /// `password reset '...'`
  mutating func parsePasswordReset() throws(ParseFailure) -> AuthStatement {
    advance()  // password
    advance()  // reset
    _ = eat(.email)
    return .passwordReset(email: try parseEmail(after: "'password reset'"))
  }

  /// `login otp email '...'`, `login otp phone '...'`, `login magic link [email] '...'`.
  mutating func parseLoginByMail() throws(ParseFailure) -> AuthStatement {
    advance()  // login
    if eatWord("otp") {
      return .sendOTP(to: try parseOTPAddress(after: "'login otp'"), magicLink: false)
    }
    advance()  // magic
    try expectWord("link", after: "'login magic'")
    _ = eat(.email)
    let email = try parseEmail(after: "'login magic link'")
    return .sendOTP(to: OTPAddress(.email, email), magicLink: true)
  }

  /// `email '...'` or `phone '...'`: where a code goes.
  mutating func parseOTPAddress(after: String) throws(ParseFailure) -> OTPAddress {
    recordKeywords(["email", "phone"])
    if eat(.email) != nil {
      return OTPAddress(.email, try parseEmail(after: "\(after.dropLast()) email'"))
    }
    guard eatWord("phone") else {
      throw expectedFailure(
        "'email' or 'phone'", after: after, help: "as in 'login otp phone '+15555550100''")
    }
    return OTPAddress(.phone, try parsePhone(after: "\(after.dropLast()) phone'"))
  }

  /// A phone number: a string or a variable (`'+15555550100'`).
  mutating func parsePhone(after: @autoclosure () -> String) throws(ParseFailure) -> ValueNode {
    try parseCredential(after: after(), what: "a phone number in quotes, as '+15555550100'")
  }

  /// `verify otp email|phone '...' token '...' [type ...]`
  mutating func parseVerify() throws(ParseFailure) -> AuthStatement {
    try expectWord("otp", after: "'verify'")
    let address = try parseOTPAddress(after: "'verify otp'")
    try expectWord(
      "token", after: "the \(address.kind == .email ? "email" : "phone number")",
      help: "as in 'verify otp \(address.kind.rawValue) ... token '123456''")
    let token = try parseSecret(after: "'token'", what: "the code in quotes or a variable")
    record(.keyword("type"))
    guard eatWord("type") else { return .verifyOTP(to: address, token: token, type: nil) }
    let types = address.kind == .email ? AuthStatement.otpTypes : AuthStatement.phoneOTPTypes
    let type = try parseChoice(types, after: "'type'")
    return .verifyOTP(to: address, token: token, type: type)
  }

  /// `resend signup|email_change [email] '...'`, `resend sms|phone_change [phone] '...'`
  mutating func parseResend() throws(ParseFailure) -> AuthStatement {
    let type = try parseChoice(AuthStatement.resendTypes, after: "'resend'")
    if AuthStatement.phoneOTPTypes.contains(type) {
      _ = eatWord("phone")
      return .resend(type: type, to: OTPAddress(.phone, try parsePhone(after: "'resend \(type)'")))
    }
    _ = eat(.email)
    return .resend(type: type, to: OTPAddress(.email, try parseEmail(after: "'resend \(type)'")))
  }

  mutating func parseMFA() throws(ParseFailure) -> AuthStatement {
    switch try parseChoice(["factors", "enroll", "verify", "unenroll"], after: "'mfa'") {
    case "factors":
      return .mfaFactors
    case "enroll":
      try expectWord("totp", after: "'mfa enroll'")
      var name: ValueNode?
      var issuer: ValueNode?
      while true {
        recordKeywords(["name", "issuer"])
        if name == nil, eatWord("name") {
          name = try parseValue(after: "'name'", what: "the factor's name in quotes")
        } else if issuer == nil, eatWord("issuer") {
          issuer = try parseValue(after: "'issuer'", what: "the issuer in quotes")
        } else {
          break
        }
      }
      return .mfaEnroll(name: name, issuer: issuer)
    case "verify":
      _ = eatWord("factor")
      recordKeywords(["code", "secret"])
      var factor: ValueNode?
      if !isWord(current, "code") && !isWord(current, "secret") {
        factor = try parseValue(after: "'mfa verify'", what: "a factor id, 'code' or 'secret'")
      }
      let answer = try parseChoice(["code", "secret"], after: "the factor")
      let value = try parseSecret(
        after: "'\(answer)'",
        what: answer == "code" ? "the 6-digit code in quotes" : "the factor's secret in quotes")
      return .mfaVerify(factor: factor, answer: answer == "code" ? .code(value) : .secret(value))
    default:
      _ = eatWord("factor")
      return .mfaUnenroll(factor: try parseValue(after: "'mfa unenroll'", what: "a factor id"))
    }
  }

  mutating func parseAdmin() throws(ParseFailure) -> AdminStatement {
    let words = ["users", "user", "create", "update", "delete", "link", "invite"]
    switch try parseChoice(words, after: "'admin'") {
    case "users":
      var filter: AdminUserFilter?
      var limit: ValueNode?
      var page: ValueNode?
      while true {
        recordKeywords(["where", "limit", "page"])
        if filter == nil, eat(.where) != nil {
          try expectWord("email", after: "'where'", help: "admin users filter by email only")
          let op = try parseChoice(
            AdminUserFilter.Operator.allCases.map(\.rawValue), after: "'email'")
          let pattern = try parseValue(after: "'\(op)'", what: "a pattern in quotes such as 'ci-%'")
          filter = AdminUserFilter(
            op: AdminUserFilter.Operator(rawValue: op) ?? .eq, pattern: pattern)
        } else if limit == nil, eat(.limit) != nil {
          limit = try parseValue(after: "'limit'", what: "a number of users")
        } else if page == nil, eatWord("page") {
          page = try parseValue(after: "'page'", what: "a page number (1 is the first)")
        } else {
          break
        }
      }
      return .users(filter: filter, limit: limit, page: page)
    case "user":
      return .user(try parseValue(after: "'admin user'", what: "a user id"))
    case "create":
      try expectWord("user", after: "'admin create'")
      try expect(.email, after: "'admin create user'")
      var creation = AdminUserCreation(email: try parseEmail(after: "'email'"))
      while true {
        recordKeywords(["password", "confirmed", "data", "app"])
        if creation.password == nil, eat(.password) != nil {
          creation.password = try parseSecret(
            after: "'password'", what: "a password in quotes or $env.NAME")
        } else if !creation.confirmed, eatWord("confirmed") {
          creation.confirmed = true
        } else if creation.data == nil, eatWord("data") {
          creation.data = try parseValue(after: "'data'", what: "the user's metadata as {...}")
        } else if creation.app == nil, eatWord("app") {
          creation.app = try parseValue(after: "'app'", what: "the app metadata as {...}")
        } else {
          break
        }
      }
      return .createUser(creation)
    case "update":
      try expectWord("user", after: "'admin update'")
      let id = try parseValue(after: "'admin update user'", what: "a user id")
      let body = try parseValue(
        after: "the user id", what: #"the changes as {...}, such as {"email_confirm": true}"#)
      return .updateUser(id: id, body: body)
    case "delete":
      try expectWord("user", after: "'admin delete'")
      let id = try parseValue(after: "'admin delete user'", what: "a user id")
      return .deleteUser(id: id, soft: eatWord("soft"))
    case "link":
      let type = try parseChoice(AdminStatement.linkTypes, after: "'admin link'")
      try expect(.email, after: "'admin link \(type)'")
      let email = try parseEmail(after: "'email'")
      var password: ValueNode?
      var data: ValueNode?
      while true {
        recordKeywords(["password", "data"])
        if password == nil, eat(.password) != nil {
          password = try parseSecret(after: "'password'", what: "a password in quotes or $env.NAME")
        } else if data == nil, eatWord("data") {
          data = try parseValue(after: "'data'", what: "the user's metadata as {...}")
        } else {
          break
        }
      }
      if type == "signup" && password == nil {
        throw expectedFailure(
          "'password'", after: "the email",
          help:
            "a sign-up link makes the user: write 'admin link signup email '...' password '...''")
      }
      return .link(type: type, email: email, password: password, data: data)
    default:
      _ = eat(.email)
      let email = try parseEmail(after: "'admin invite'")
      record(.keyword("data"))
      guard eatWord("data") else { return .invite(email: email, data: nil) }
      return .invite(
        email: email, data: try parseValue(after: "'data'", what: "the user's metadata as {...}"))
    }
  }

  /// `as service <statement>`: the statement is parsed whole; the checker says which may run so.
  mutating func parseAsService() throws(ParseFailure) -> Statement.Kind {
    try expectWord("service", after: "'as'", help: "as in 'as service from user_info select *'")
    recordKeywords(["from", "rpc", "storage"])
    guard current.kind == .word || current.kind == .backslashCommand else {
      throw expectedFailure(
        "a query, rpc or storage statement", after: "'as service'",
        help: "as in 'as service from user_info delete where id eq $id'")
    }
    return .asService(try parseStatement())
  }
}
