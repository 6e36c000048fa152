import CCrypto
import SNMWire

/// An asymmetric JWT signing key, as hosted projects now sign user tokens: ES256 (EC P-256) or
/// RS256 (RSA 2048), with a `kid` and its public half as a JWK for the JWKS endpoint.
///
/// ```swift
/// let (key, pem) = try SigningKey.generate(.es256)   // pem: the private key, to keep 0600
/// let same = try SigningKey(pem: pem)                // same.kid == key.kid
/// let signature = try key.sign(Array("header.payload".utf8))
/// key.verify(Array("header.payload".utf8), signature: signature)   // true
/// key.jwk["kty"]   // "EC"
/// ```
/// The `kid` is the key's RFC 7638 thumbprint, so the same key always has the same one. Throws
/// `CryptoError` when libcrypto fails or the PEM holds no key of a supported kind.
public final class SigningKey: Sendable {
  public enum Algorithm: String, Sendable, CaseIterable {
    case es256 = "ES256"
    case rs256 = "RS256"

    var kind: Int32 { self == .es256 ? 0 : 1 }
  }

  public let algorithm: Algorithm
  /// The RFC 7638 thumbprint of the public key, base64url.
  public let kid: String
  /// The public key as a JWK (`kty`, `crv`/`x`/`y` or `n`/`e`, `kid`, `alg`, `use`, `key_ops`).
  public let jwk: JSONValue
  /// The libcrypto key (`EVP_PKEY *`), as an address: a pointer is not `Sendable`, and the key is
  /// only read once made (libcrypto allows concurrent signing and verifying with one key).
  private let address: UInt

  private init(key: OpaquePointer, algorithm: Algorithm, kid given: String? = nil)
    throws(CryptoError)
  {
    self.algorithm = algorithm
    address = UInt(bitPattern: Int(bitPattern: UnsafeRawPointer(key)))
    var members: [JSONObject.Member]
    var canonical: String
    switch algorithm {
    case .es256:
      let x = Base64URL.encode(try Self.number(key, "qx", width: 32))
      let y = Base64URL.encode(try Self.number(key, "qy", width: 32))
      members = [.init("kty", .string("EC")), .init("crv", .string("P-256"))]
      members += [.init("x", .string(x)), .init("y", .string(y))]
      canonical = #"{"crv":"P-256","kty":"EC","x":"\#(x)","y":"\#(y)"}"#
    case .rs256:
      let n = Base64URL.encode(try Self.number(key, "n", width: 0))
      let e = Base64URL.encode(try Self.number(key, "e", width: 0))
      members = [.init("kty", .string("RSA")), .init("n", .string(n)), .init("e", .string(e))]
      canonical = #"{"e":"\#(e)","kty":"RSA","n":"\#(n)"}"#
    }
    if let given {
      kid = given
    } else {
      kid = Base64URL.encode(try Crypto.sha256(Array(canonical.utf8)))
    }
    members += [
      .init("kid", .string(kid)), .init("alg", .string(algorithm.rawValue)),
      .init("use", .string("sig")), .init("key_ops", .array([.string("verify")])),
    ]
    jwk = .object(members)
  }

  deinit {
    EVP_PKEY_free(key)
  }

  private var key: OpaquePointer? { OpaquePointer(bitPattern: address) }

  /// A new key for `algorithm`, and its PEM (PKCS#8) to store.
  public static func generate(_ algorithm: Algorithm) throws(CryptoError) -> (
    SigningKey, pem: [UInt8]
  ) {
    guard let key = snm_key_generate(algorithm.kind) else {
      throw CryptoError(operation: "generating a \(algorithm.rawValue) key")
    }
    var pem = [UInt8](repeating: 0, count: 8192)
    let length = pem.withUnsafeMutableBufferPointer {
      snm_key_write_pem(key, $0.baseAddress, $0.count)
    }
    guard length > 0 else {
      EVP_PKEY_free(key)
      throw CryptoError(operation: "writing a \(algorithm.rawValue) key")
    }
    return (try SigningKey(key: key, algorithm: algorithm), Array(pem.prefix(length)))
  }

  /// The key in `pem` (what ``generate(_:)`` gave); its kind says the algorithm. `kid` names it
  /// (by default its thumbprint).
  public convenience init(pem: [UInt8], kid: String? = nil) throws(CryptoError) {
    let read = pem.withUnsafeBufferPointer { snm_key_read_pem($0.baseAddress, Int32($0.count)) }
    try self.init(read: read, named: "the signing key", kid: kid)
  }

  /// The public key in PEM `pem` ("PUBLIC KEY"): a key that only verifies, as a provider's key
  /// from its JWKS. `kid` names it (by default its thumbprint).
  public convenience init(publicPEM pem: [UInt8], kid: String? = nil) throws(CryptoError) {
    let read = pem.withUnsafeBufferPointer {
      snm_key_read_public_pem($0.baseAddress, Int32($0.count))
    }
    try self.init(read: read, named: "the public key", kid: kid)
  }

  /// The key libcrypto read from a PEM (nil: it found none), its kind saying the algorithm;
  /// `name` says which key in the errors (`reading the public key`). Frees a key of another kind.
  private convenience init(read: OpaquePointer?, named name: String, kid: String?)
    throws(CryptoError)
  {
    guard let key = read else { throw CryptoError(operation: "reading \(name)") }
    switch snm_key_kind(key) {
    case 0: try self.init(key: key, algorithm: .es256, kid: kid)
    case 1: try self.init(key: key, algorithm: .rs256, kid: kid)
    default:
      EVP_PKEY_free(key)
      throw CryptoError(operation: "reading \(name) (not EC P-256 or RSA 2048)")
    }
  }

  /// The JWS signature of `input` (for ES256, r and s of 32 bytes each).
  public func sign(_ input: [UInt8]) throws(CryptoError) -> [UInt8] {
    var signature = [UInt8](repeating: 0, count: 1024)
    let length = input.withUnsafeBufferPointer { data in
      signature.withUnsafeMutableBufferPointer { out in
        snm_key_sign(key, data.baseAddress, data.count, out.baseAddress, out.count)
      }
    }
    guard length > 0 else { throw CryptoError(operation: "\(algorithm.rawValue) signing") }
    return Array(signature.prefix(length))
  }

  /// Whether `signature` is this key's over `input`.
  public func verify(_ input: [UInt8], signature: [UInt8]) -> Bool {
    let verdict = input.withUnsafeBufferPointer { data in
      signature.withUnsafeBufferPointer { sig in
        snm_key_verify(key, data.baseAddress, data.count, sig.baseAddress, sig.count)
      }
    }
    return verdict == 1
  }

  /// A public number of `key`, big-endian, left-padded to `width` bytes (0: as it is).
  private static func number(_ key: OpaquePointer, _ name: String, width: Int) throws(CryptoError)
    -> [UInt8]
  {
    var bytes = [UInt8](repeating: 0, count: 1024)
    let length = bytes.withUnsafeMutableBufferPointer {
      snm_key_public_number(key, name, $0.baseAddress, Int32($0.count))
    }
    guard length > 0, width == 0 || Int(length) <= width else {
      throw CryptoError(operation: "reading the key's '\(name)'")
    }
    let value = Array(bytes.prefix(Int(length)))
    return width == 0 ? value : [UInt8](repeating: 0, count: width - value.count) + value
  }
}
