import Foundation
import SNMWire

/// A project's own signing keys, as the Supabase CLI keeps them (`[auth] signing_keys_path`,
/// `supabase gen signing-key`) and GoTrue reads them (`GOTRUE_JWT_KEYS`): a JSON array of private
/// JWKs (or `{"keys": [...]}`), each with its `kid`, `alg` and `key_ops`.
///
/// ```swift
/// let key = try SigningKey(jwkSet: Array(file))   // the first ES256/RS256 key that may sign
/// key.kid                                          // the JWK's own kid
/// ```
/// Throws `CryptoError` when the file is not such a set or holds no EC P-256 or RSA key whose
/// `key_ops` allow `sign`. HS256 (`oct`) keys are passed over: user tokens are then signed
/// with the asymmetric key, as GoTrue signs with the key that has `sign`.
extension SigningKey {
  public convenience init(jwkSet bytes: [UInt8]) throws(CryptoError) {
    guard let json = try? JSONValue(parsing: bytes) else {
      throw CryptoError(operation: "reading the signing keys (not JSON)")
    }
    let keys = json.arrayValue ?? json["keys"]?.arrayValue ?? []
    for jwk in keys {
      let operations = jwk["key_ops"]?.arrayValue?.compactMap(\.stringValue)
      guard operations == nil || operations?.contains("sign") == true,
        let kty = jwk["kty"]?.stringValue, kty == "EC" || kty == "RSA"
      else { continue }
      let der = try kty == "EC" ? Self.ecDER(jwk) : Self.rsaDER(jwk)
      let label = kty == "EC" ? "EC PRIVATE KEY" : "RSA PRIVATE KEY"
      let pem =
        "-----BEGIN \(label)-----\n"
        + Data(der).base64EncodedString(options: .lineLength64Characters)
        + "\n-----END \(label)-----\n"
      try self.init(pem: Array(pem.utf8), kid: jwk["kid"]?.stringValue)
      return
    }
    throw CryptoError(operation: "reading the signing keys (no EC P-256 or RSA key that may sign)")
  }

  /// A JWK member's base64url bytes.
  static func member(_ jwk: JSONValue, _ name: String) throws(CryptoError) -> [UInt8] {
    guard let text = jwk[name]?.stringValue, let bytes = Base64URL.decode(text), !bytes.isEmpty
    else { throw CryptoError(operation: "reading the signing key's '\(name)'") }
    return bytes
  }

  /// PKCS#1 `RSAPrivateKey`: version 0 and the eight numbers.
  static func rsaDER(_ jwk: JSONValue) throws(CryptoError) -> [UInt8] {
    var body = DER.integer([0])
    for name in ["n", "e", "d", "p", "q", "dp", "dq", "qi"] {
      body += DER.integer(try member(jwk, name))
    }
    return DER.tagged(0x30, body)
  }

  /// SEC 1 `ECPrivateKey` on P-256: version 1, `d`, the curve, the public point.
  static func ecDER(_ jwk: JSONValue) throws(CryptoError) -> [UInt8] {
    guard jwk["crv"]?.stringValue == "P-256" else {
      throw CryptoError(operation: "reading the signing key (an EC key not on P-256)")
    }
    let d = try member(jwk, "d")
    let x = try member(jwk, "x")
    let y = try member(jwk, "y")
    let prime256v1: [UInt8] = [0x06, 0x08, 0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x03, 0x01, 0x07]
    var body = DER.integer([1]) + DER.tagged(0x04, d)
    body += DER.tagged(0xA0, prime256v1)
    body += DER.tagged(0xA1, DER.tagged(0x03, [0x00, 0x04] + x + y))
    return DER.tagged(0x30, body)
  }
}

/// The few DER encodings a private key needs.
enum DER {
  static func length(_ count: Int) -> [UInt8] {
    guard count >= 0x80 else { return [UInt8(count)] }
    var bytes: [UInt8] = []
    var rest = count
    while rest > 0 {
      bytes.insert(UInt8(rest & 0xFF), at: 0)
      rest >>= 8
    }
    return [0x80 | UInt8(bytes.count)] + bytes
  }

  static func tagged(_ tag: UInt8, _ content: [UInt8]) -> [UInt8] {
    [tag] + length(content.count) + content
  }

  /// A non-negative INTEGER from big-endian bytes.
  static func integer(_ magnitude: [UInt8]) -> [UInt8] {
    var bytes = Array(magnitude.drop { $0 == 0 })
    if bytes.isEmpty { bytes = [0] }
    if bytes[0] & 0x80 != 0 { bytes.insert(0, at: 0) }
    return tagged(0x02, bytes)
  }
}
