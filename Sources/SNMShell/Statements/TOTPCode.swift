import Foundation

/// The current TOTP code of a factor's secret, for `mfa verify ... secret '...'` (scripts that
/// finish their own enrolment).
///
/// ```swift
/// let code = try TOTPCode.now(secret: "JBSWY3DPEHPK3PXP")   // "492039"
/// ```
enum TOTPCode {
  /// Why no code could be made.
  struct Failure: Error, Sendable, Equatable, CustomStringConvertible {
    var description: String
  }

  /// The 6-digit code for `secret` (base32) at `date`, 30-second steps (RFC 6238). Until SNMCrypto
  /// (the one TOTP of the project) is on main, this says so.
  static func now(secret: String, date: Date = Date()) throws -> String {
    throw Failure(description: "this snm cannot compute TOTP codes yet; write 'code '...''")
  }
}
