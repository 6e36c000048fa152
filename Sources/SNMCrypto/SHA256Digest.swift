import CCrypto

/// SHA-256 of a text, in base64url without padding (43 characters), for telling secrets apart
/// without keeping them (a project's keys, in its stored session).
///
/// ```swift
/// let mark = try SHA256Digest.base64URL(of: key)   // never the key itself
/// ```
/// Throws `TOTPError` (libcrypto's failure) when the digest cannot be had.
public enum SHA256Digest {
  public static func base64URL(of text: String) throws(TOTPError) -> String {
    var digest = [UInt8](repeating: 0, count: 32)
    let bytes = Array(text.utf8)
    let status = digest.withUnsafeMutableBufferPointer { out in
      bytes.withUnsafeBufferPointer { snm_sha256($0.baseAddress, bytes.count, out.baseAddress) }
    }
    guard status == 1 else { throw TOTPError(operation: "SHA256") }
    return PKCEVerifier.base64URL(digest)
  }
}
