/// `login apple id-token <token> [nonce '...']` and `login provider github`: signing in through
/// another identity provider (docs/auth.md).
extension AuthStatementParser {
  /// `login provider ...` or `login <id_token provider> id-token ...`.
  static func isLoginElsewhere(_ parser: Parser) -> Bool {
    parser.isWord(parser.peek(), "provider")
      || AuthStatement.idTokenProviders.contains { parser.isWord(parser.peek(), $0) }
  }

  static func parseLoginElsewhere(_ parser: inout Parser) throws(ParseFailure) -> AuthStatement {
    parser.advance()  // login
    if parser.eatWord("provider") {
      return .signInWithProvider(
        try parser.parseChoice(AuthStatement.oauthProviders, after: "'login provider'"))
    }
    let provider = parser.text(parser.advance()).lowercased()
    let after = "'login \(provider)'"
    parser.record(.keyword("id-token"))
    let run = parser.current.kind == .word ? ValueParser.bareRun(parser) : nil
    guard let run, ["id-token", "id_token"].contains(run.text.lowercased()) else {
      throw parser.expectedFailure(
        "'id-token'", after: after, help: "as in 'login \(provider) id-token $env.ID_TOKEN'")
    }
    ValueParser.skipBareRun(&parser, to: run.range.end)
    parser.record(.value)
    guard [.singleQuoted, .doubleQuoted, .variable].contains(parser.current.kind) else {
      // Never quote what was written: it is the token (SecretMask masks the line).
      let found =
        parser.current.kind.isStatementEnd || parser.current.kind.isError
        ? nil : "an unquoted token"
      guard let found else { throw parser.expectedFailure("the id_token", after: "'id-token'") }
      throw parser.failure(
        .expected("the id_token", after: "'id-token'", found: found), at: parser.current.range,
        help: "write it in quotes, id-token '...', or from the environment, id-token $env.NAME")
    }
    let token = try ValueParser.parse(&parser, after: "'id-token'", what: "the id_token")
    parser.record(.keyword("nonce"))
    guard parser.eatWord("nonce") else {
      return .signInWithIDToken(provider: provider, token: token, nonce: nil)
    }
    let nonce = try parseSecret(
      &parser, after: "'nonce'", what: "the raw nonce in quotes or a variable")
    return .signInWithIDToken(provider: provider, token: token, nonce: nonce)
  }
}
