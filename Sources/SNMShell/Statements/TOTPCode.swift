import Foundation
import SNMCrypto

/// The current TOTP code of a factor's secret, for `mfa verify ... secret '...'` (scripts that
/// finish their own enrolment), computed by SNMCrypto's `TOTP`, the one the local project checks
/// codes with.
///
/// ```swift
/// let code = try TOTPCode.now(secret: "JBSWY3DPEHPK3PXP")   // "492039" at some moment
/// ```
enum TOTPCode {
  /// Why no code could be made.
  struct Failure: Error, Sendable, Equatable, CustomStringConvertible {
    var description: String
  }

  /// The 6-digit code for `secret` (base32) at `date`, 30-second steps (RFC 6238).
  static func now(secret: String, date: Date = Date()) throws -> String {
    guard let totp = TOTP(base32Secret: secret) else {
      throw Failure(description: "the TOTP secret is not base32 (A-Z, 2-7)")
    }
    do {
      return try totp.code(at: date.timeIntervalSince1970)
    } catch {
      throw Failure(description: "could not compute the TOTP code: \(error)")
    }
  }
}
