import CCrypto

/// A PKCE verifier and its S256 challenge (RFC 7636), as a client makes them for one flow: the
/// challenge goes out with the authorize request, the verifier only with the code exchange.
///
/// ```swift
/// let pkce = try PKCEVerifier.generate()
/// pkce.challenge   // BASE64URL(SHA-256(verifier)), 43 characters
/// ```
/// Throws `TOTPError` (libcrypto's failure, or why it could not be opened) when random bytes or
/// the digest cannot be had.
public struct PKCEVerifier: Sendable, Equatable {
  /// 43 characters of base64url: 32 random bytes. Secret.
  public let verifier: String
  public let challenge: String

  public init(verifier: String) throws(TOTPError) {
    try TOTPError.requireLibcrypto(for: "SHA256")
    var digest = [UInt8](repeating: 0, count: 32)
    let bytes = Array(verifier.utf8)
    let status = digest.withUnsafeMutableBufferPointer { out in
      bytes.withUnsafeBufferPointer { snm_sha256($0.baseAddress, bytes.count, out.baseAddress) }
    }
    guard status == 1 else { throw TOTPError(operation: "SHA256") }
    self.verifier = verifier
    self.challenge = Self.base64URL(digest)
  }

  /// A new verifier of 32 random bytes.
  public static func generate() throws(TOTPError) -> PKCEVerifier {
    try TOTPError.requireLibcrypto(for: "RAND_bytes")
    var random = [UInt8](repeating: 0, count: 32)
    let status = random.withUnsafeMutableBufferPointer { RAND_bytes($0.baseAddress, 32) }
    guard status == 1 else { throw TOTPError(operation: "RAND_bytes") }
    return try PKCEVerifier(verifier: base64URL(random))
  }

  /// Base64url without padding.
  static func base64URL(_ bytes: [UInt8]) -> String {
    let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
    var text = ""
    var index = 0
    while index < bytes.count {
      let chunk = bytes[index..<min(index + 3, bytes.count)]
      var word = 0
      for (offset, byte) in chunk.enumerated() { word |= Int(byte) << (16 - 8 * offset) }
      for position in 0...chunk.count { text.append(alphabet[(word >> (18 - 6 * position)) & 63]) }
      index += 3
    }
    return text
  }
}
