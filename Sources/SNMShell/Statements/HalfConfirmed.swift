import SNMSupabase

/// The answer to the first of an e-mail change's two codes (the project confirms both addresses):
/// no session yet, only which address is confirmed and what is still needed.
enum HalfConfirmed {
  static func of(_ recipient: OTPRecipient, _ type: String) -> AuthStatements.Answer {
    AuthStatements.Answer(
      value: .null,
      message:
        "\(recipient.address) is confirmed for the e-mail change; the code sent to the other "
        + "address is still needed: 'verify otp email '...' token '...' type \(type)'")
  }
}
