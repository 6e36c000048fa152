import Foundation
import Testing

@testable import SNMShell

/// `mfa verify ... secret` computes the code the local project and GoTrue check (RFC 6238).
@Test func theCodeOfASecretIsRFC6238s() throws {
  // RFC 6238's SHA-1 secret "12345678901234567890" in base32; its 8-digit vectors end in these six.
  let secret = "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ"
  #expect(try TOTPCode.now(secret: secret, date: Date(timeIntervalSince1970: 59)) == "287082")
  #expect(
    try TOTPCode.now(secret: secret, date: Date(timeIntervalSince1970: 1_111_111_109)) == "081804")
  #expect(throws: TOTPCode.Failure.self) { try TOTPCode.now(secret: "not base32!") }
}
