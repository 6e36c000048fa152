import SNMGateway

/// A code as mailed: the six digits, and the hash GoTrue keeps and puts in links.
struct OneTimeCode: Sendable, Equatable {
  var otp: String
  var tokenHash: String

  /// Six random digits (rejection-sampled, so each is as likely).
  static func newOTP() throws -> String {
    while true {
      let bytes = try Crypto.randomBytes(4)
      let value = bytes.reduce(UInt32(0)) { ($0 << 8) | UInt32($1) }
      guard value < 4_294_000_000 else { continue }
      let number = String(value % 1_000_000)
      return String(repeating: "0", count: 6 - number.count) + number
    }
  }

  /// GoTrue's `GenerateTokenHash`: hex SHA-224 of the address and the code.
  static func hash(address: String, otp: String) throws -> String {
    Crypto.hex(try Crypto.sha224(Array((address + otp).utf8)))
  }
}
