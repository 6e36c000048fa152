/// `login apple id-token <token> [nonce '...']` and `login provider github`: signing in through
/// another identity provider (docs/auth.md).
extension Parser {
  /// `login provider ...` or `login <id_token provider> id-token ...`.
  var isLoginElsewhere: Bool {
    isWord(peek(), "provider") || AuthStatement.idTokenProviders.contains { isWord(peek(), $0) }
  }

  mutating func parseLoginElsewhere() throws(ParseFailure) -> AuthStatement {
    advance()  // login
    if eatWord("provider") {
      return .signInWithProvider(
        try parseChoice(AuthStatement.oauthProviders, after: "'login provider'"))
    }
    let provider = text(advance()).lowercased()
    let after = "'login \(provider)'"
    record(.keyword("id-token"))
    let run = current.kind == .word ? bareRun() : nil
    guard let run, ["id-token", "id_token"].contains(run.text.lowercased()) else {
      throw expectedFailure(
        "'id-token'", after: after, help: "as in 'login \(provider) id-token $env.ID_TOKEN'")
    }
    skipBareRun(to: run.range.end)
    record(.value)
    guard [.singleQuoted, .doubleQuoted, .variable].contains(current.kind) else {
      // Never quote what was written: it is the token (SecretMask masks the line).
      let found = current.kind.isStatementEnd || current.kind.isError ? nil : "an unquoted token"
      guard let found else { throw expectedFailure("the id_token", after: "'id-token'") }
      throw failure(
        .expected("the id_token", after: "'id-token'", found: found), at: current.range,
        help: "write it in quotes, id-token '...', or from the environment, id-token $env.NAME")
    }
    let token = try parseValue(after: "'id-token'", what: "the id_token")
    record(.keyword("nonce"))
    guard eatWord("nonce") else {
      return .signInWithIDToken(provider: provider, token: token, nonce: nil)
    }
    let nonce = try parseSecret(after: "'nonce'", what: "the raw nonce in quotes or a variable")
    return .signInWithIDToken(provider: provider, token: token, nonce: nonce)
  }
}
