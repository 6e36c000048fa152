import Foundation
import SNMCrypto

/// The current TOTP code of a factor's secret, for `mfa verify ... secret '...'` (scripts that
/// finish their own enrolment), from SNMCrypto's `TOTP` (RFC 6238: HMAC-SHA1, 30 s, 6 digits),
/// the one the local project checks codes with.
///
/// ```swift
/// let code = try TOTPCode.now(secret: "JBSWY3DPEHPK3PXP")
/// ```
enum TOTPCode {
  /// Why no code could be made.
  struct Failure: Error, Sendable, Equatable, CustomStringConvertible {
    var description: String
  }

  /// The code for `secret` (base32, as GoTrue's enrolment gives it) at `date`.
  /// - Throws: ``Failure`` for a secret that is not base32, or when libcrypto fails.
  static func now(secret: String, date: Date = Date()) throws -> String {
    guard let totp = TOTP(base32Secret: secret) else {
      throw Failure(description: "the TOTP secret is not base32 (as 'mfa enroll totp' gives it)")
    }
    do {
      return try totp.code(at: date.timeIntervalSince1970)
    } catch {
      throw Failure(description: error.description)
    }
  }
}
