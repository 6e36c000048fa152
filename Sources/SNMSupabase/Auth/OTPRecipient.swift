/// Where a one-time code goes: an e-mail address or a phone number, GoTrue's `email` or `phone`
/// member of `/otp`, `/verify` and `/resend`.
///
/// ```swift
/// AuthEndpoint.otp(to: .phone("+15555550100"), createUser: true)   // {"phone": ..., "channel": "sms"}
/// ```
public enum OTPRecipient: Sendable, Hashable {
  case email(String)
  case phone(String)

  /// The body member naming it.
  public var member: String {
    switch self {
    case .email: "email"
    case .phone: "phone"
    }
  }

  /// The address or number, as written.
  public var address: String {
    switch self {
    case .email(let address), .phone(let address): address
    }
  }

  /// What a code sent there is: a mail or a text.
  public var what: String {
    switch self {
    case .email: "mail"
    case .phone: "text"
    }
  }
}
