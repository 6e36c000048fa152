import SNMGateway
import SNMWire

/// Which key GoTrue verifies an HS256 user token with when the project signs with a key pair
/// (`parseJWTClaims`, `conf.FindPublicKeyByKid`): the token's `kid` picks the key. A `kid` naming
/// the project's asymmetric key gives that key, which cannot check an HMAC, so such a token is
/// refused even when the legacy secret signed it; without a `kid`, or with one naming no key,
/// the legacy secret verifies it (GoTrue's fallback, which keeps the legacy API keys and older
/// sessions working).
///
/// ```swift
/// try LegacySecretRule.check(token, signingKey: signer.signingKey)   // throws AuthFailure.badJWT
/// ```
enum LegacySecretRule {
  static func check(_ token: String, signingKey: SigningKey?) throws(AuthFailure) {
    guard let signingKey, let end = token.utf8.firstIndex(of: UInt8(ascii: ".")),
      let bytes = Base64URL.decode(token[..<end]), let header = try? JSONValue(parsing: bytes),
      header["alg"]?.stringValue == "HS256", header["kid"]?.stringValue == signingKey.kid
    else { return }
    throw AuthFailure.badJWT("token signature is invalid: key is of invalid type")
  }
}
