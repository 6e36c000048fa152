import Foundation
import SNMWire

/// A public key read from a JWK, as an identity provider publishes its keys (a JWKS): RSA (`n`,
/// `e`) or EC P-256 (`x`, `y`). The key verifies; it has no private half to sign with.
///
/// ```swift
/// let keys = SigningKey.publicKeys(jwks: Array(body))   // every RS256/ES256 key of the set
/// keys.first?.kid                                        // the JWK's own kid
/// ```
extension SigningKey {
  /// The key of one public JWK; its `kid` is the JWK's (by default the thumbprint). Throws
  /// `CryptoError` for a JWK of another kind, curve or size.
  public convenience init(publicJWK jwk: JSONValue) throws(CryptoError) {
    let der: [UInt8]
    switch jwk["kty"]?.stringValue {
    case "RSA":
      let rsaEncryption: [UInt8] = [
        0x06, 0x09, 0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x01, 0x01, 0x05, 0x00,
      ]
      let numbers = DER.integer(try Self.member(jwk, "n")) + DER.integer(try Self.member(jwk, "e"))
      der = DER.tagged(
        0x30,
        DER.tagged(0x30, rsaEncryption) + DER.tagged(0x03, [0x00] + DER.tagged(0x30, numbers)))
    case "EC":
      guard jwk["crv"]?.stringValue == "P-256" else {
        throw CryptoError(operation: "reading the public key (an EC key not on P-256)")
      }
      let x = try Self.member(jwk, "x")
      let y = try Self.member(jwk, "y")
      guard x.count == 32, y.count == 32 else {
        throw CryptoError(operation: "reading the public key (a P-256 point of another size)")
      }
      let ecPublicKey: [UInt8] = [0x06, 0x07, 0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x02, 0x01]
      let prime256v1: [UInt8] = [0x06, 0x08, 0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x03, 0x01, 0x07]
      der = DER.tagged(
        0x30, DER.tagged(0x30, ecPublicKey + prime256v1) + DER.tagged(0x03, [0x00, 0x04] + x + y))
    default:
      throw CryptoError(operation: "reading the public key (not an RSA or EC key)")
    }
    let pem =
      "-----BEGIN PUBLIC KEY-----\n"
      + Data(der).base64EncodedString(options: .lineLength64Characters)
      + "\n-----END PUBLIC KEY-----\n"
    try self.init(publicPEM: Array(pem.utf8), kid: jwk["kid"]?.stringValue)
  }

  /// The keys of a JWKS (`{"keys": [...]}`) that may verify signatures: RSA of 2048 bits or more
  /// and EC P-256, not marked for encryption (`use` other than `sig`). Other keys are passed
  /// over, as a verifier passes over keys it cannot use; nil when the bytes are no JWKS.
  public static func publicKeys(jwks bytes: [UInt8]) -> [SigningKey]? {
    guard let json = try? JSONValue(parsing: bytes), let keys = json["keys"]?.arrayValue else {
      return nil
    }
    return keys.compactMap { jwk in
      if let use = jwk["use"]?.stringValue, use != "sig" { return nil }
      return try? SigningKey(publicJWK: jwk)
    }
  }
}
