import SNMSupabase

/// `login [email <v> [password <v>]]`, `signup email <v> [password <v>]`, `session check|show`, `logout`.
extension Parser {
  mutating func parseSession() throws(ParseFailure) -> SessionStatement {
    let keyword = advance()
    switch keyword.keyword {
    case .login:
      record(.keyword("email"))
      // `login otp|magic ...`: Parser+Auth.swift; `login provider|apple ...`: Parser+Login.swift
      recordKeywords(["otp", "magic", "provider", "apple"])
      guard eat(.email) != nil else { return .loginAnonymously }
      let (email, password) = try parseCredentials(after: "'login email'")
      return .login(email: email, password: password)
    case .signup:
      try expect(.email, after: "'signup'")
      let (email, password) = try parseCredentials(after: "'signup email'")
      record(.keyword("data"))
      guard eatWord("data") else { return .signup(email: email, password: password) }
      let data = try parseValue(after: "'data'", what: "the user's metadata as {...}")
      return .signup(email: email, password: password, data: data)
    case .session:
      record(.keyword("check"))
      record(.keyword("show"))
      record(.keyword("refresh"))
      record(.keyword("token"))
      if eat(.check) != nil { return .check }
      if eat(.show) != nil { return .show }
      if eatWord("refresh") { return .refresh }
      if eatWord("token") { return .token }
      let help =
        current.kind == .word
        ? DidYouMean.help(text(current), among: ["check", "show", "refresh", "token"]) : nil
      throw expectedFailure(
        "'check', 'show', 'refresh' or 'token'", after: "'session'", help: help)
    default:
      let scopes = SignOutScope.allCases.map(\.rawValue)
      recordKeywords(scopes)
      guard current.kind == .word else { return .logout() }
      let word = text(current).lowercased()
      guard let scope = SignOutScope(rawValue: word) else {
        throw expectedFailure(
          "'local', 'others' or 'global'", after: "'logout'",
          help: DidYouMean.help(word, among: scopes))
      }
      advance()
      return .logout(scope)
    }
  }

  /// The email (a string or variable), then an optional `password <string or variable>`.
  mutating func parseCredentials(after: @autoclosure () -> String) throws(ParseFailure) -> (
    ValueNode, ValueNode?
  ) {
    let email = try parseCredential(after: after(), what: "an email address in quotes")
    record(.keyword("password"))
    if current.kind == .variable {
      // `login email 'a@b.c' $env.PW`: a variable right after the email is the password.
      return (email, try parseValue(after: "the email", what: "a password"))
    }
    guard eat(.password) != nil else { return (email, nil) }
    let password = try parseCredential(
      after: "'password'", what: "a password in quotes or $env.NAME")
    return (email, password)
  }

  mutating func parseCredential(after: @autoclosure () -> String, what: String) throws(ParseFailure)
    -> ValueNode
  {
    record(.value)
    switch current.kind {
    case .singleQuoted, .doubleQuoted, .variable:
      return try parseValue(after: after(), what: what)
    case .word where what.hasPrefix("an email"):
      // `login email alice@example.com`: an address needs no quotes.
      let run = bareRun()
      guard run.text.contains("@"), !run.text.hasPrefix("@"), !run.text.hasSuffix("@") else {
        throw expectedFailure(what, after: after())
      }
      skipBareRun(to: run.range.end)
      return ValueNode(.string(StringLiteral(parts: [.text(run.text)])), range: run.range)
    case _
    where what.hasPrefix("a password") && !current.kind.isStatementEnd
      && !current.kind.isError:
      // Never quote what was written: it is the password (SecretMask masks the line).
      throw failure(
        .expected(what, after: after(), found: "an unquoted password"), at: current.range,
        help: "write it in quotes, password '...', or from the environment, password $env.NAME")
    default:
      throw expectedFailure(what, after: after())
    }
  }
}
