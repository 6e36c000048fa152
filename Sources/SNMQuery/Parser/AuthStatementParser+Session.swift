import SNMSupabase

/// `login [email <v> [password <v>]]`, `signup email <v> [password <v>]`, `session check|show`, `logout`.
extension AuthStatementParser {
  static func parseSession(_ parser: inout Parser) throws(ParseFailure) -> SessionStatement {
    let keyword = parser.advance()
    switch keyword.keyword {
    case .login:
      parser.record(.keyword("email"))
      // `login otp|magic ...`: AuthStatementParser.swift; `login provider|apple ...`: its +Login
      parser.recordKeywords(["otp", "magic", "provider", "apple"])
      guard parser.eat(.email) != nil else { return .loginAnonymously }
      let (email, password) = try parseCredentials(&parser, after: "'login email'")
      return .login(email: email, password: password)
    case .signup:
      try parser.expect(.email, after: "'signup'")
      let (email, password) = try parseCredentials(&parser, after: "'signup email'")
      parser.record(.keyword("data"))
      guard parser.eatWord("data") else { return .signup(email: email, password: password) }
      let data = try ValueParser.parse(
        &parser, after: "'data'", what: "the user's metadata as {...}")
      return .signup(email: email, password: password, data: data)
    case .session:
      parser.record(.keyword("check"))
      parser.record(.keyword("show"))
      parser.record(.keyword("refresh"))
      parser.record(.keyword("token"))
      if parser.eat(.check) != nil { return .check }
      if parser.eat(.show) != nil { return .show }
      if parser.eatWord("refresh") { return .refresh }
      if parser.eatWord("token") { return .token }
      let help =
        parser.current.kind == .word
        ? DidYouMean.help(
          parser.text(parser.current), among: ["check", "show", "refresh", "token"]) : nil
      throw parser.expectedFailure(
        "'check', 'show', 'refresh' or 'token'", after: "'session'", help: help)
    default:
      let scopes = SignOutScope.allCases.map(\.rawValue)
      parser.recordKeywords(scopes)
      guard parser.current.kind == .word else { return .logout() }
      let word = parser.text(parser.current).lowercased()
      guard let scope = SignOutScope(rawValue: word) else {
        throw parser.expectedFailure(
          "'local', 'others' or 'global'", after: "'logout'",
          help: DidYouMean.help(word, among: scopes))
      }
      parser.advance()
      return .logout(scope)
    }
  }

  /// The email (a string or variable), then an optional `password <string or variable>`.
  static func parseCredentials(_ parser: inout Parser, after: @autoclosure () -> String)
    throws(ParseFailure) -> (
      ValueNode, ValueNode?
    )
  {
    let email = try parseCredential(&parser, after: after(), what: "an email address in quotes")
    parser.record(.keyword("password"))
    if parser.current.kind == .variable {
      // `login email 'a@b.c' $env.PW`: a variable right after the email is the password.
      return (email, try ValueParser.parse(&parser, after: "the email", what: "a password"))
    }
    guard parser.eat(.password) != nil else { return (email, nil) }
    let password = try parseCredential(
      &parser,
      after: "'password'", what: "a password in quotes or $env.NAME")
    return (email, password)
  }

  static func parseCredential(
    _ parser: inout Parser, after: @autoclosure () -> String, what: String
  ) throws(ParseFailure)
    -> ValueNode
  {
    parser.record(.value)
    switch parser.current.kind {
    case .singleQuoted, .doubleQuoted, .variable:
      return try ValueParser.parse(&parser, after: after(), what: what)
    case .word where what.hasPrefix("an email"):
      // `login email alice@example.com`: an address needs no quotes.
      let run = ValueParser.bareRun(parser)
      guard run.text.contains("@"), !run.text.hasPrefix("@"), !run.text.hasSuffix("@") else {
        throw parser.expectedFailure(what, after: after())
      }
      ValueParser.skipBareRun(&parser, to: run.range.end)
      return ValueNode(.string(StringLiteral(parts: [.text(run.text)])), range: run.range)
    case _
    where what.hasPrefix("a password") && !parser.current.kind.isStatementEnd
      && !parser.current.kind.isError:
      // Never quote what was written: it is the password (SecretMask masks the line).
      throw parser.failure(
        .expected(what, after: after(), found: "an unquoted password"), at: parser.current.range,
        help: "write it in quotes, password '...', or from the environment, password $env.NAME")
    default:
      throw parser.expectedFailure(what, after: after())
    }
  }
}
