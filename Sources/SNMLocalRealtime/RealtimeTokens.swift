import Foundation
import SNMGateway
import SNMWire

/// Which tokens Realtime takes and why it refuses one, in Realtime's words: a connection's API
/// key (the project's keys, or a JWT of the project's with `role` and `exp`), and the
/// `access_token` of a join or of a refresh.
struct RealtimeTokens: Sendable {
  /// The claims of one of the project's API keys (a new-format key gets its role's), else nil.
  let apiKeyClaims: @Sendable (String) -> JSONValue?
  /// Verifies a JWT with the project's keys.
  let verify: @Sendable (String) -> Result<JSONValue, JWTError>
  let now: @Sendable () -> Double

  /// Why a token is refused: Realtime's error code and message.
  struct Refusal: Error, Sendable, Equatable {
    var code: String
    var message: String

    /// The join reply's `reason`: `"<Code>: <message>"`.
    var reason: String { "\(code): \(message)" }
  }

  /// The claims of the key a socket connects with.
  func connectClaims(_ key: String) -> Result<JSONValue, Refusal> {
    if let claims = apiKeyClaims(key) { return .success(claims) }
    return claims(of: key)
  }

  /// The claims of a JWT, with `role` and `exp` required as Realtime requires them.
  func claims(of token: String) -> Result<JSONValue, Refusal> {
    switch verify(token) {
    case .success(let claims):
      guard claims["role"]?.stringValue != nil, claims["exp"]?.numberValue != nil else {
        return .failure(
          Refusal(code: "InvalidJWTToken", message: "Fields `role` and `exp` are required in JWT"))
      }
      return .success(claims)
    case .failure(.expired):
      let seconds = Self.unverifiedExpiry(token).map { max(0, Int(now() - $0)) } ?? 0
      return .failure(
        Refusal(code: "InvalidJWTToken", message: "Token has expired \(seconds) seconds ago"))
    case .failure(.badSignature), .failure(.unsupportedAlgorithm):
      return .failure(
        Refusal(code: "JwtSignatureError", message: "Failed to validate JWT signature"))
    case .failure:
      return .failure(
        Refusal(code: "MalformedJWT", message: "The token provided is not a valid JWT"))
    }
  }

  /// The `exp` of a token whose signature already checked (for the "expired N seconds ago" text).
  static func unverifiedExpiry(_ token: String) -> Double? {
    let parts = token.split(separator: ".", omittingEmptySubsequences: false)
    guard parts.count == 3, let bytes = Base64URL.decode(parts[1]),
      let claims = try? JSONValue(parsing: bytes)
    else { return nil }
    return claims["exp"]?.doubleValue
  }
}
