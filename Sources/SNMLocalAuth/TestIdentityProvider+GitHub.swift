import SNMGateway
import SNMWire

/// The test issuer standing in for GitHub in the OAuth redirect flow (``AuthProviderFlow``): the
/// code its sign-in page hands back is a token of the project's own key, naming the user and the
/// flow's `state`, which the callback verifies instead of asking GitHub.
extension TestIdentityProvider {
  /// The issuer GitHub's codes name here, and GoTrue's `iss` of a GitHub identity.
  static let githubIssuer = "https://github.com"
  static let githubIdentityIssuer = "https://api.github.com"

  /// The code of GitHub's sign-in of `email` for the flow `state`: ten minutes of validity; the
  /// same address is the same GitHub user (its id derived from the address).
  func mintGitHubCode(email: String, state: String, now: Double) throws(CryptoError) -> String {
    let issuedAt = Int(now)
    let lower = email.lowercased()
    let digest = Crypto.hex(try Crypto.sha256(Array(lower.utf8)))
    let id = Int(digest.prefix(7), radix: 16) ?? 1
    let members: [JSONObject.Member] = [
      .init("iss", .string(Self.githubIssuer)), .init("aud", .string(Self.clientID)),
      .init("exp", .int(issuedAt + 600)), .init("iat", .int(issuedAt)),
      .init("sub", .string(String(id))), .init("email", .string(lower)),
      .init("email_verified", .bool(true)), .init("state", .string(state)),
      .init("user_name", .string(String(lower.prefix { $0 != "@" }))),
    ]
    return try signer.signUserToken(.object(members))
  }

  /// The claims of a code this issuer minted for the flow `state`, not expired; nil otherwise
  /// (an Apple id_token of the same key names no state and another issuer).
  func verifyGitHubCode(_ code: String, state: String, now: Double) -> JSONValue? {
    guard let claims = verify(code, now: now), claims["iss"]?.stringValue == Self.githubIssuer,
      claims["aud"]?.stringValue == Self.clientID, claims["state"]?.stringValue == state
    else { return nil }
    return claims
  }
}
