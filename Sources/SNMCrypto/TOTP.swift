import CCrypto

/// Time-based one-time passwords (RFC 6238) as GoTrue and authenticator apps use them:
/// HMAC-SHA1, 30-second steps, 6 digits, the secret shown in base32.
///
/// ```swift
/// let totp = try TOTP.generate()                          // a new 20-byte secret
/// totp.base32Secret                                       // "JBSWY3DPEHPK3PXP…" (32 characters)
/// let code = try totp.code(at: Date().timeIntervalSince1970)   // "492039"
/// try totp.matchingStep(code, at: now, skew: 1)           // the step it belongs to, or nil
/// TOTP(base32Secret: "JBSW Y3DP")                         // nil when not base32
/// ```
/// Throws `TOTPError` when libcrypto fails.
public struct TOTP: Sendable, Equatable {
  public var secret: [UInt8]
  public var digits: Int
  public var period: Int

  public init(secret: [UInt8], digits: Int = 6, period: Int = 30) {
    self.secret = secret
    self.digits = digits
    self.period = period
  }

  /// The TOTP of a base32 secret (any case, spaces allowed); nil when it is not base32 or empty.
  public init?(base32Secret: String, digits: Int = 6, period: Int = 30) {
    guard let bytes = Base32.decode(base32Secret), !bytes.isEmpty else { return nil }
    self.init(secret: bytes, digits: digits, period: period)
  }

  /// A TOTP with a new random secret of `bytes` bytes (GoTrue's: 20).
  public static func generate(bytes: Int = 20) throws(TOTPError) -> TOTP {
    try TOTPError.requireLibcrypto(for: "RAND_bytes")
    var secret = [UInt8](repeating: 0, count: bytes)
    let status = secret.withUnsafeMutableBufferPointer { RAND_bytes($0.baseAddress, Int32(bytes)) }
    guard status == 1 else { throw TOTPError(operation: "RAND_bytes") }
    return TOTP(secret: secret)
  }

  /// The secret as authenticator apps take it: base32, no padding.
  public var base32Secret: String { Base32.encode(secret) }

  /// The step (30-second window since the epoch) `time` falls in.
  public func step(at time: Double) -> Int64 { Int64((time / Double(period)).rounded(.down)) }

  /// The code for `time` (seconds since 1970).
  public func code(at time: Double) throws(TOTPError) -> String {
    try code(step: step(at: time))
  }

  /// The code of one step (HOTP, RFC 4226, with the step as the counter).
  public func code(step: Int64) throws(TOTPError) -> String {
    try TOTPError.requireLibcrypto(for: "HMAC-SHA1")
    var counter = [UInt8](repeating: 0, count: 8)
    var value = UInt64(bitPattern: step)
    for index in stride(from: 7, through: 0, by: -1) {
      counter[index] = UInt8(value & 0xff)
      value >>= 8
    }
    var mac = [UInt8](repeating: 0, count: 20)
    let status = secret.withUnsafeBufferPointer { key in
      counter.withUnsafeBufferPointer { data in
        mac.withUnsafeMutableBufferPointer { out in
          snm_hmac_sha1(key.baseAddress, Int32(key.count), data.baseAddress, 8, out.baseAddress)
        }
      }
    }
    guard status == 1 else { throw TOTPError(operation: "HMAC-SHA1") }
    let offset = Int(mac[19] & 0x0f)
    let binary =
      (UInt32(mac[offset] & 0x7f) << 24) | (UInt32(mac[offset + 1]) << 16)
      | (UInt32(mac[offset + 2]) << 8) | UInt32(mac[offset + 3])
    var modulus: UInt32 = 1
    for _ in 0..<digits { modulus *= 10 }
    let number = String(binary % modulus)
    return String(repeating: "0", count: max(0, digits - number.count)) + number
  }

  /// The step whose code is `code`, looking `skew` steps either side of `time` (GoTrue allows
  /// 1); nil when none matches. The comparison takes the same time wherever the codes differ.
  public func matchingStep(_ code: String, at time: Double, skew: Int = 1) throws(TOTPError)
    -> Int64?
  {
    guard code.utf8.count == digits, code.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }) else {
      return nil
    }
    let current = step(at: time)
    var found: Int64?
    for delta in -Int64(skew)...Int64(skew) {
      let candidate = try self.code(step: current + delta)
      var difference: UInt8 = 0
      for (left, right) in zip(candidate.utf8, code.utf8) { difference |= left ^ right }
      if difference == 0 && found == nil { found = current + delta }
    }
    return found
  }

  /// The `otpauth://totp/ISSUER:ACCOUNT?…` URI an authenticator app scans (the Key Uri Format
  /// GoTrue's library writes: algorithm, digits, issuer, period, secret, in that order).
  public func uri(issuer: String, account: String) -> String {
    let label = Self.escape(issuer, keeping: "") + ":" + Self.escape(account, keeping: "@")
    return "otpauth://totp/\(label)?algorithm=SHA1&digits=\(digits)&issuer="
      + Self.escape(issuer, keeping: "") + "&period=\(period)&secret=\(base32Secret)"
  }

  /// Percent-encodes all but RFC 3986's unreserved characters and `extra`.
  static func escape(_ text: String, keeping extra: String) -> String {
    let hex = Array("0123456789ABCDEF".utf8)
    var output: [UInt8] = []
    let kept = Set(extra.utf8)
    for byte in text.utf8 {
      let unreserved =
        (byte >= 0x41 && byte <= 0x5a) || (byte >= 0x61 && byte <= 0x7a)
        || (byte >= 0x30 && byte <= 0x39) || byte == 0x2d || byte == 0x2e || byte == 0x5f
        || byte == 0x7e
      if unreserved || kept.contains(byte) {
        output.append(byte)
      } else {
        output += [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 15)]]
      }
    }
    return String(decoding: output, as: UTF8.self)
  }
}

/// libcrypto refused an operation TOTP needs, or could not be opened (`reason` says why).
public struct TOTPError: Error, Sendable, Equatable, CustomStringConvertible {
  public var operation: String
  /// Why libcrypto could not be opened (it is opened on first use), or nil.
  public var reason: String? = nil
  public var description: String { reason ?? "libcrypto failed in \(operation)" }

  /// Opens libcrypto if it is not yet: throws, saying why and which package has it, on a machine
  /// without it (instead of the process ending at the first call).
  static func requireLibcrypto(for operation: String) throws(TOTPError) {
    if let missing = snm_libcrypto_load() {
      throw TOTPError(
        operation: operation, reason: "\(String(cString: missing)) (install Debian's libssl3)")
    }
  }
}
