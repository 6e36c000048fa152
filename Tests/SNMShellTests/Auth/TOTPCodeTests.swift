import Foundation
import SNMCrypto
import Testing

@testable import SNMShell

/// `mfa verify ... secret`: the code comes from SNMCrypto's TOTP; `mfa enroll` at a terminal
/// draws the URI as a QR code.
@Suite struct TOTPCodeTests {
  @Test func theCodeOfASecretIsRFC6238s() throws {
    // RFC 6238's SHA-1 vectors (secret "12345678901234567890"), as 6 digits.
    let secret = "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ"
    #expect(try TOTPCode.now(secret: secret, date: Date(timeIntervalSince1970: 59)) == "287082")
    #expect(
      try TOTPCode.now(secret: secret, date: Date(timeIntervalSince1970: 1_111_111_109))
        == "081804")
    #expect(throws: TOTPCode.Failure.self) { try TOTPCode.now(secret: "not base32 !") }
  }

  @Test func theQRCodeIsDrawnTwoModulesARow() throws {
    let qr = try #require(QRCode("otpauth://totp/snm:kim@example.com?secret=JBSWY3DP&issuer=snm"))
    let lines = TerminalQRCode.render(qr).split(separator: "\n")
    let side = qr.size + 2 * TerminalQRCode.quietZone
    #expect(lines.count == (side + 1) / 2)
    #expect(lines.allSatisfy { $0.count == side })
    // The quiet zone is light: the first line is full blocks.
    #expect(lines[0].allSatisfy { $0 == "█" })
  }
}
