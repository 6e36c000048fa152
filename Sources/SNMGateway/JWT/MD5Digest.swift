import CCrypto

/// An MD5 digest fed a piece at a time (Storage's ETag of an object is the MD5 of its bytes).
///
/// ```swift
/// let digest = try MD5Digest()
/// try digest.update(chunk)
/// let etag = Crypto.hex(try digest.finish())   // "9e107d9d372bb6826bd81d3542a419d6"
/// ```
/// Not for security. Throws `CryptoError` when libcrypto fails.
package final class MD5Digest {
  private let context: OpaquePointer

  package init() throws(CryptoError) {
    guard let context = EVP_MD_CTX_new() else { throw CryptoError(operation: "MD5 init") }
    guard EVP_DigestInit_ex(context, EVP_md5(), nil) == 1 else {
      EVP_MD_CTX_free(context)
      throw CryptoError(operation: "MD5 init")
    }
    self.context = context
  }

  deinit { EVP_MD_CTX_free(context) }

  package func update(_ bytes: UnsafeRawBufferPointer) throws(CryptoError) {
    guard bytes.count > 0 else { return }
    guard EVP_DigestUpdate(context, bytes.baseAddress, bytes.count) == 1 else {
      throw CryptoError(operation: "MD5 update")
    }
  }

  /// The 16-byte digest; the digest cannot be fed afterwards.
  package func finish() throws(CryptoError) -> [UInt8] {
    var output = [UInt8](repeating: 0, count: 16)
    var length: UInt32 = 0
    let status = output.withUnsafeMutableBufferPointer {
      EVP_DigestFinal_ex(context, $0.baseAddress, &length)
    }
    guard status == 1, length == 16 else { throw CryptoError(operation: "MD5 final") }
    return output
  }
}
