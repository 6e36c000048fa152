import SNMGateway
import SNMWire

/// A flow's PKCE challenge (RFC 7636) as a client sends it with a sign-up, magic link or
/// recovery: the challenge and its method, `s256` or `plain`.
struct PKCEChallenge: Equatable {
  var challenge: String
  var method: String

  /// Seconds a flow state stays good for its exchange (GoTrue's `FLOW_STATE_EXPIRY_DURATION`).
  static let expiry = 300

  /// The prefix GoTrue gives a mailed token of a PKCE flow: following its link answers with an
  /// auth code rather than a session.
  static let tokenPrefix = "pkce_"

  /// The challenge `body` carries, nil for none (the implicit flow); GoTrue's checks: both
  /// members or neither, 43 to 128 characters of `[A-Za-z0-9._~-]`, a method it knows.
  init?(_ body: JSONValue) throws(AuthFailure) {
    let challenge = body["code_challenge"]?.stringValue ?? ""
    let method = body["code_challenge_method"]?.stringValue ?? ""
    if challenge.isEmpty != method.isEmpty {
      throw AuthFailure.validationFailed(
        "PKCE flow requires code_challenge_method and code_challenge")
    }
    guard !challenge.isEmpty else { return nil }
    guard (43...128).contains(challenge.utf8.count) else {
      throw AuthFailure.validationFailed("code challenge has to be between 43 and 128 characters")
    }
    let allowed = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._~-".utf8)
    guard challenge.utf8.allSatisfy(allowed.contains) else {
      throw AuthFailure.validationFailed(
        "code challenge can only contain alphanumeric characters, hyphens, periods, underscores and tildes"
      )
    }
    guard ["s256", "plain"].contains(method.lowercased()) else {
      throw AuthFailure.validationFailed("Invalid code_challenge_method")
    }
    self.challenge = challenge
    self.method = method.lowercased()
  }

  /// Whether `verifier` answers `challenge` by `method`, compared in constant time.
  static func matches(challenge: String, method: String, verifier: String) -> Bool {
    switch method {
    case "s256":
      guard let digest = try? Crypto.sha256(Array(verifier.utf8)) else { return false }
      return Crypto.constantTimeEqual(Base64URL.encode(digest), challenge)
    case "plain":
      return Crypto.constantTimeEqual(verifier, challenge)
    default:
      return false
    }
  }

  /// GoTrue's authentication method for a verified mail of `type` (a verify type).
  static func method(verifyType type: String) -> String {
    type.hasSuffix("signup") ? "email/signup" : type
  }
}
