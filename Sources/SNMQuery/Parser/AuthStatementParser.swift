/// The grammar of the auth statements: the account, MFA, admin and inbox statements, `as service
/// <statement>`, `password reset`, and (+Session, +Login) `login`, `signup`, `session`, `logout`.
/// Their words are matched as words (any case), so they stay free as names everywhere else.
/// A value type of its own over the ``Parser``'s cursor: each function takes the parser `inout`
/// (as ``RealtimeStatementParser``'s do), so its tokens are never copied.
enum AuthStatementParser {
  /// The words that start one of these statements.
  static let words = ["user", "verify", "resend", "mfa", "admin", "inbox", "as"]
  /// Those `let name = ...` takes (statements whose answer can be bound).
  static let bindableWords = ["user", "verify", "mfa", "admin", "inbox", "as"]

  /// `login otp ...` or `login magic ...`.
  static func isLoginByMail(_ parser: Parser) -> Bool {
    parser.isWord(parser.peek(), "otp") || parser.isWord(parser.peek(), "magic")
  }

  static func parse(_ parser: inout Parser) throws(ParseFailure) -> Statement.Kind {
    let word = parser.text(parser.current).lowercased()
    parser.advance()
    switch word {
    case "user": return .auth(try parseUser(&parser))
    case "verify": return .auth(try parseVerify(&parser))
    case "resend": return .auth(try parseResend(&parser))
    case "mfa": return .auth(try parseMFA(&parser))
    case "admin": return .auth(.admin(try parseAdmin(&parser)))
    case "inbox":
      return .auth(.inbox(address: try parseEmail(&parser, after: "'inbox'")))
    default:
      return try parseAsService(&parser)
    }
  }

  /// An address: a string, a variable, or a bare `kim@example.com`.
  static func parseEmail(_ parser: inout Parser, after: @autoclosure () -> String)
    throws(ParseFailure) -> ValueNode
  {
    try parseCredential(&parser, after: after(), what: "an email address in quotes")
  }

  /// A secret: a string or a variable (`$env.NEW_PASSWORD`).
  static func parseSecret(_ parser: inout Parser, after: @autoclosure () -> String, what: String)
    throws(ParseFailure)
    -> ValueNode
  {
    try parseCredential(&parser, after: after(), what: what)
  }

  static func parseUser(_ parser: inout Parser) throws(ParseFailure) -> AuthStatement {
    switch try parser.parseChoice(["show", "update", "reauthenticate"], after: "'user'") {
    case "show": return .userShow
    case "reauthenticate": return .reauthenticate
    default: break
    }
    var update = UserUpdate()
    while true {
      parser.record(.symbol(.leftBrace))
      parser.recordKeywords(["email", "password", "nonce"])
      if parser.current.kind == .leftBrace, update.body == nil {
        update.body = try ValueParser.parseObject(&parser)
      } else if parser.eat(.email) != nil, update.email == nil {
        update.email = try parseEmail(&parser, after: "'email'")
      } else if parser.eat(.password) != nil, update.password == nil {
        update.password = try parseSecret(
          &parser,
          after: "'password'", what: "the new password in quotes or $env.NAME")
      } else if update.password != nil, update.nonce == nil, parser.eatWord("nonce") {
        update.nonce = try parseSecret(
          &parser, after: "'nonce'", what: "the code in quotes or a variable")
      } else {
        break
      }
    }
    guard !update.values.isEmpty else {
      throw parser.expectedFailure(
        "{...}, 'email' or 'password'", after: "'user update'",
        help: #"as in 'user update {"nick": "kim"}' or 'user update password $env.NEW'"#)
    }
    return .userUpdate(update)
  }

  /// `password reset '...'`
  static func parsePasswordReset(_ parser: inout Parser) throws(ParseFailure) -> AuthStatement {
    parser.advance()  // password
    parser.advance()  // reset
    _ = parser.eat(.email)
    return .passwordReset(email: try parseEmail(&parser, after: "'password reset'"))
  }

  /// `login otp email '...'`, `login otp phone '...'`, `login magic link [email] '...'`.
  static func parseLoginByMail(_ parser: inout Parser) throws(ParseFailure) -> AuthStatement {
    parser.advance()  // login
    if parser.eatWord("otp") {
      return .sendOTP(to: try parseOTPAddress(&parser, after: "'login otp'"), magicLink: false)
    }
    parser.advance()  // magic
    try parser.expectWord("link", after: "'login magic'")
    _ = parser.eat(.email)
    let email = try parseEmail(&parser, after: "'login magic link'")
    return .sendOTP(to: OTPAddress(.email, email), magicLink: true)
  }

  /// `email '...'` or `phone '...'`: where a code goes.
  static func parseOTPAddress(_ parser: inout Parser, after: String) throws(ParseFailure)
    -> OTPAddress
  {
    parser.recordKeywords(["email", "phone"])
    if parser.eat(.email) != nil {
      return OTPAddress(.email, try parseEmail(&parser, after: "\(after.dropLast()) email'"))
    }
    guard parser.eatWord("phone") else {
      throw parser.expectedFailure(
        "'email' or 'phone'", after: after, help: "as in 'login otp phone '+15555550100''")
    }
    return OTPAddress(.phone, try parsePhone(&parser, after: "\(after.dropLast()) phone'"))
  }

  /// A phone number: a string or a variable (`'+15555550100'`).
  static func parsePhone(_ parser: inout Parser, after: @autoclosure () -> String)
    throws(ParseFailure) -> ValueNode
  {
    try parseCredential(
      &parser, after: after(), what: "a phone number in quotes, as '+15555550100'")
  }

  /// `verify otp email|phone '...' token '...' [type ...]`
  static func parseVerify(_ parser: inout Parser) throws(ParseFailure) -> AuthStatement {
    try parser.expectWord("otp", after: "'verify'")
    let address = try parseOTPAddress(&parser, after: "'verify otp'")
    try parser.expectWord(
      "token", after: "the \(address.kind == .email ? "email" : "phone number")",
      help: "as in 'verify otp \(address.kind.rawValue) ... token '123456''")
    let token = try parseSecret(&parser, after: "'token'", what: "the code in quotes or a variable")
    parser.record(.keyword("type"))
    guard parser.eatWord("type") else { return .verifyOTP(to: address, token: token, type: nil) }
    let types = address.kind == .email ? AuthStatement.otpTypes : AuthStatement.phoneOTPTypes
    let type = try parser.parseChoice(types, after: "'type'")
    return .verifyOTP(to: address, token: token, type: type)
  }

  /// `resend signup|email_change [email] '...'`, `resend sms|phone_change [phone] '...'`
  static func parseResend(_ parser: inout Parser) throws(ParseFailure) -> AuthStatement {
    let type = try parser.parseChoice(AuthStatement.resendTypes, after: "'resend'")
    if AuthStatement.phoneOTPTypes.contains(type) {
      _ = parser.eatWord("phone")
      return .resend(
        type: type, to: OTPAddress(.phone, try parsePhone(&parser, after: "'resend \(type)'")))
    }
    _ = parser.eat(.email)
    return .resend(
      type: type, to: OTPAddress(.email, try parseEmail(&parser, after: "'resend \(type)'")))
  }

  static func parseMFA(_ parser: inout Parser) throws(ParseFailure) -> AuthStatement {
    switch try parser.parseChoice(["factors", "enroll", "verify", "unenroll"], after: "'mfa'") {
    case "factors":
      return .mfaFactors
    case "enroll":
      try parser.expectWord("totp", after: "'mfa enroll'")
      var name: ValueNode?
      var issuer: ValueNode?
      while true {
        parser.recordKeywords(["name", "issuer"])
        if name == nil, parser.eatWord("name") {
          name = try ValueParser.parse(
            &parser, after: "'name'", what: "the factor's name in quotes")
        } else if issuer == nil, parser.eatWord("issuer") {
          issuer = try ValueParser.parse(&parser, after: "'issuer'", what: "the issuer in quotes")
        } else {
          break
        }
      }
      return .mfaEnroll(name: name, issuer: issuer)
    case "verify":
      _ = parser.eatWord("factor")
      parser.recordKeywords(["code", "secret"])
      var factor: ValueNode?
      if !parser.isWord(parser.current, "code") && !parser.isWord(parser.current, "secret") {
        factor = try ValueParser.parse(
          &parser,
          after: "'mfa verify'", what: "a factor id, 'code' or 'secret'")
      }
      let answer = try parser.parseChoice(["code", "secret"], after: "the factor")
      let value = try parseSecret(
        &parser,
        after: "'\(answer)'",
        what: answer == "code" ? "the 6-digit code in quotes" : "the factor's secret in quotes")
      return .mfaVerify(factor: factor, answer: answer == "code" ? .code(value) : .secret(value))
    default:
      _ = parser.eatWord("factor")
      return .mfaUnenroll(
        factor: try ValueParser.parse(&parser, after: "'mfa unenroll'", what: "a factor id"))
    }
  }

  static func parseAdmin(_ parser: inout Parser) throws(ParseFailure) -> AdminStatement {
    let words = ["users", "user", "create", "update", "delete", "link", "invite"]
    switch try parser.parseChoice(words, after: "'admin'") {
    case "users":
      var filter: AdminUserFilter?
      var limit: ValueNode?
      var page: ValueNode?
      while true {
        parser.recordKeywords(["where", "limit", "page"])
        if filter == nil, parser.eat(.where) != nil {
          try parser.expectWord("email", after: "'where'", help: "admin users filter by email only")
          let op = try parser.parseChoice(
            AdminUserFilter.Operator.allCases.map(\.rawValue), after: "'email'")
          let pattern = try ValueParser.parse(
            &parser,
            after: "'\(op)'", what: "a pattern in quotes such as 'ci-%'")
          filter = AdminUserFilter(
            op: AdminUserFilter.Operator(rawValue: op) ?? .eq, pattern: pattern)
        } else if limit == nil, parser.eat(.limit) != nil {
          limit = try ValueParser.parse(&parser, after: "'limit'", what: "a number of users")
        } else if page == nil, parser.eatWord("page") {
          page = try ValueParser.parse(
            &parser, after: "'page'", what: "a page number (1 is the first)")
        } else {
          break
        }
      }
      return .users(filter: filter, limit: limit, page: page)
    case "user":
      return .user(try ValueParser.parse(&parser, after: "'admin user'", what: "a user id"))
    case "create":
      try parser.expectWord("user", after: "'admin create'")
      try parser.expect(.email, after: "'admin create user'")
      var creation = AdminUserCreation(email: try parseEmail(&parser, after: "'email'"))
      while true {
        parser.recordKeywords(["password", "confirmed", "data", "app"])
        if creation.password == nil, parser.eat(.password) != nil {
          creation.password = try parseSecret(
            &parser,
            after: "'password'", what: "a password in quotes or $env.NAME")
        } else if !creation.confirmed, parser.eatWord("confirmed") {
          creation.confirmed = true
        } else if creation.data == nil, parser.eatWord("data") {
          creation.data = try ValueParser.parse(
            &parser,
            after: "'data'", what: "the user's metadata as {...}")
        } else if creation.app == nil, parser.eatWord("app") {
          creation.app = try ValueParser.parse(
            &parser, after: "'app'", what: "the app metadata as {...}")
        } else {
          break
        }
      }
      return .createUser(creation)
    case "update":
      try parser.expectWord("user", after: "'admin update'")
      let id = try ValueParser.parse(&parser, after: "'admin update user'", what: "a user id")
      let body = try ValueParser.parse(
        &parser,
        after: "the user id", what: #"the changes as {...}, such as {"email_confirm": true}"#)
      return .updateUser(id: id, body: body)
    case "delete":
      try parser.expectWord("user", after: "'admin delete'")
      let id = try ValueParser.parse(&parser, after: "'admin delete user'", what: "a user id")
      return .deleteUser(id: id, soft: parser.eatWord("soft"))
    case "link":
      let type = try parser.parseChoice(AdminStatement.linkTypes, after: "'admin link'")
      try parser.expect(.email, after: "'admin link \(type)'")
      let email = try parseEmail(&parser, after: "'email'")
      var password: ValueNode?
      var data: ValueNode?
      while true {
        parser.recordKeywords(["password", "data"])
        if password == nil, parser.eat(.password) != nil {
          password = try parseSecret(
            &parser, after: "'password'", what: "a password in quotes or $env.NAME")
        } else if data == nil, parser.eatWord("data") {
          data = try ValueParser.parse(
            &parser, after: "'data'", what: "the user's metadata as {...}")
        } else {
          break
        }
      }
      if type == "signup" && password == nil {
        throw parser.expectedFailure(
          "'password'", after: "the email",
          help:
            "a sign-up link makes the user: write 'admin link signup email '...' password '...''")
      }
      return .link(type: type, email: email, password: password, data: data)
    default:
      _ = parser.eat(.email)
      let email = try parseEmail(&parser, after: "'admin invite'")
      parser.record(.keyword("data"))
      guard parser.eatWord("data") else { return .invite(email: email, data: nil) }
      return .invite(
        email: email,
        data: try ValueParser.parse(&parser, after: "'data'", what: "the user's metadata as {...}"))
    }
  }

  /// `as service <statement>`: the statement is parsed whole; the checker says which may run so.
  static func parseAsService(_ parser: inout Parser) throws(ParseFailure) -> Statement.Kind {
    try parser.expectWord(
      "service", after: "'as'", help: "as in 'as service from user_info select *'")
    parser.recordKeywords(["from", "rpc", "storage"])
    guard parser.current.kind == .word || parser.current.kind == .backslashCommand else {
      throw parser.expectedFailure(
        "a query, rpc or storage statement", after: "'as service'",
        help: "as in 'as service from user_info delete where id eq $id'")
    }
    return .asService(try parser.parseStatement())
  }
}
