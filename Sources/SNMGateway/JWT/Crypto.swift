import CCrypto

/// The few libcrypto primitives the local project needs: HMAC-SHA256, SHA-256, SHA-224, random
/// bytes.
///
/// ```swift
/// let mac = try Crypto.hmacSHA256(key: secret, data: Array("a.b".utf8))
/// ```
/// Each throws `CryptoError` when libcrypto reports a failure.
public enum Crypto {
  /// HMAC-SHA256 of `data` under `key` (32 bytes).
  public static func hmacSHA256(key: [UInt8], data: [UInt8]) throws(CryptoError) -> [UInt8] {
    var output = [UInt8](repeating: 0, count: 32)
    let status = key.withUnsafeBufferPointer { keyBuffer in
      data.withUnsafeBufferPointer { dataBuffer in
        output.withUnsafeMutableBufferPointer { outBuffer in
          snm_hmac_sha256(
            keyBuffer.baseAddress, Int32(keyBuffer.count), dataBuffer.baseAddress, dataBuffer.count,
            outBuffer.baseAddress)
        }
      }
    }
    guard status == 1 else { throw CryptoError(operation: "HMAC-SHA256") }
    return output
  }

  /// SHA-256 digest of `data` (32 bytes).
  public static func sha256(_ data: [UInt8]) throws(CryptoError) -> [UInt8] {
    try digest(data, length: 32, name: "SHA-256", snm_sha256)
  }

  /// SHA-224 digest of `data` (28 bytes): GoTrue's token hash of a mailed code.
  public static func sha224(_ data: [UInt8]) throws(CryptoError) -> [UInt8] {
    try digest(data, length: 28, name: "SHA-224", snm_sha224)
  }

  /// `function` (a shim digest: data, length, output; 1 on success) of `data`.
  private static func digest(
    _ data: [UInt8], length: Int, name: String,
    _ function: (UnsafePointer<UInt8>?, Int, UnsafeMutablePointer<UInt8>?) -> Int32
  ) throws(CryptoError) -> [UInt8] {
    var output = [UInt8](repeating: 0, count: length)
    let status = data.withUnsafeBufferPointer { dataBuffer in
      output.withUnsafeMutableBufferPointer { outBuffer in
        function(dataBuffer.baseAddress, dataBuffer.count, outBuffer.baseAddress)
      }
    }
    guard status == 1 else { throw CryptoError(operation: name) }
    return output
  }

  /// `count` bytes from libcrypto's CSPRNG.
  public static func randomBytes(_ count: Int) throws(CryptoError) -> [UInt8] {
    var output = [UInt8](repeating: 0, count: count)
    let status = output.withUnsafeMutableBufferPointer { RAND_bytes($0.baseAddress, Int32(count)) }
    guard status == 1 else { throw CryptoError(operation: "RAND_bytes") }
    return output
  }

  /// Compares in time independent of where the inputs differ.
  public static func constantTimeEqual(_ lhs: [UInt8], _ rhs: [UInt8]) -> Bool {
    guard lhs.count == rhs.count else { return false }
    var difference: UInt8 = 0
    for index in 0..<lhs.count { difference |= lhs[index] ^ rhs[index] }
    return difference == 0
  }

  /// `constantTimeEqual` over two strings' UTF-8, without copying them (an API key is compared
  /// with the project's keys on every request): their storage is read in place, borrowed, eight
  /// bytes at a time.
  public static func constantTimeEqual(_ lhs: String, _ rhs: String) -> Bool {
    guard lhs.utf8.count == rhs.utf8.count else { return false }
    let borrowed = lhs.utf8.withContiguousStorageIfAvailable { left in
      rhs.utf8.withContiguousStorageIfAvailable { right in sameBytes(left, right) }
    }
    if let borrowed, let same = borrowed { return same }
    // A string bridged from elsewhere has no contiguous UTF-8 of its own: made native here.
    var lhs = lhs
    var rhs = rhs
    return lhs.withUTF8 { left in rhs.withUTF8 { right in sameBytes(left, right) } }
  }

  /// Whether two buffers hold the same bytes, every byte read whatever the first difference.
  static func sameBytes(_ left: UnsafeBufferPointer<UInt8>, _ right: UnsafeBufferPointer<UInt8>)
    -> Bool
  {
    guard left.count == right.count else { return false }
    var difference: UInt64 = 0
    var index = 0
    // Loaded here, not through SNMWire's `ByteWord.load`: a static build calls that across the
    // module (no inlining), which cost more than the bytes compared.
    let leftWords = UnsafeRawBufferPointer(left)
    let rightWords = UnsafeRawBufferPointer(right)
    while index + 8 <= left.count {
      difference |=
        leftWords.loadUnaligned(fromByteOffset: index, as: UInt64.self)
        ^ rightWords.loadUnaligned(fromByteOffset: index, as: UInt64.self)
      index += 8
    }
    while index < left.count {
      difference |= UInt64(left[index] ^ right[index])
      index += 1
    }
    return difference == 0
  }

  /// Lowercase hex of `bytes`.
  public static func hex(_ bytes: [UInt8]) -> String {
    let digits = Array("0123456789abcdef".utf8)
    var output: [UInt8] = []
    output.reserveCapacity(bytes.count * 2)
    for byte in bytes {
      output.append(digits[Int(byte >> 4)])
      output.append(digits[Int(byte & 15)])
    }
    return String(decoding: output, as: UTF8.self)
  }
}

/// libcrypto refused an operation.
public struct CryptoError: Error, Sendable, Equatable, CustomStringConvertible {
  public var operation: String
  public var description: String { "libcrypto failed in \(operation)" }
}
