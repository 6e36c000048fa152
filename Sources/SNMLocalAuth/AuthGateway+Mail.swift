import SNMGateway
import SNMWire

/// The mails GoTrue would send, and where a code's hash is kept until it is used.
enum AuthMailKind: String, Sendable, CaseIterable {
  case signup, invite, magiclink, recovery
  /// To the current address of an e-mail change (its code confirms the old address).
  case emailChangeCurrent = "email_change_current"
  /// To the new address of an e-mail change.
  case emailChangeNew = "email_change_new"
  case reauthentication

  /// The inbox's `kind`: both halves of an e-mail change are `email_change`.
  var inboxKind: String {
    switch self {
    case .emailChangeCurrent, .emailChangeNew: "email_change"
    default: rawValue
    }
  }

  /// The auth.users column holding the code's hash, and its sent-at column.
  var columns: (token: String, sentAt: String) {
    switch self {
    case .signup, .invite: ("confirmation_token", "confirmation_sent_at")
    case .magiclink, .recovery: ("recovery_token", "recovery_sent_at")
    case .emailChangeCurrent: ("email_change_token_current", "email_change_sent_at")
    case .emailChangeNew: ("email_change_token_new", "email_change_sent_at")
    case .reauthentication: ("reauthentication_token", "reauthentication_sent_at")
    }
  }

  /// The `type` its link verifies as; nil for reauthentication (a code only).
  var verifyType: String? {
    switch self {
    case .signup: "signup"
    case .invite: "invite"
    case .magiclink: "magiclink"
    case .recovery: "recovery"
    case .emailChangeCurrent, .emailChangeNew: "email_change"
    case .reauthentication: nil
    }
  }

  /// GoTrue's default subjects.
  var subject: String {
    switch self {
    case .signup: "Confirm Your Email"
    case .invite: "You have been invited"
    case .magiclink: "Your Magic Link"
    case .recovery: "Reset Your Password"
    case .emailChangeCurrent, .emailChangeNew: "Confirm Email Change"
    case .reauthentication: "Confirm reauthentication"
    }
  }
}

/// A code as mailed: the six digits, and the hash GoTrue keeps and puts in links.
struct OneTimeCode: Sendable, Equatable {
  var otp: String
  var tokenHash: String
}

extension AuthGateway {
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
  static func tokenHash(address: String, otp: String) throws -> String {
    Crypto.hex(try Crypto.sha224(Array((address + otp).utf8)))
  }

  /// The verify link GoTrue mails: `<issuer>/verify?token=HASH&type=TYPE&redirect_to=URL`.
  func verifyLink(tokenHash: String, type: String, redirectTo: String?) -> String {
    "\(settings.issuer)/verify?token=\(tokenHash)&type=\(type)&redirect_to="
      + PercentEncoding.encode(redirectURL(redirectTo))
  }

  /// `redirect_to` when it points at this machine (as GoTrue keeps to its allow list), else the
  /// site URL: a link never hands tokens to another host.
  func redirectURL(_ requested: String?) -> String {
    guard let requested, !requested.isEmpty else { return settings.siteURL }
    let lower = requested.lowercased()
    for scheme in ["http://", "https://"] where lower.hasPrefix(scheme) {
      let rest = lower.dropFirst(scheme.count)
      let authority = rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
      let host: Substring
      if authority.hasPrefix("[") {
        host = authority.prefix { $0 != "]" }.dropFirst()
      } else {
        host = authority.prefix { $0 != ":" }
      }
      if ["localhost", "127.0.0.1", "::1"].contains(String(host)),
        !authority.contains("@"),
        !requested.unicodeScalars.contains(where: { $0.value < 0x21 || $0.value == 0x7f })
      {
        return requested
      }
    }
    return settings.siteURL
  }

  /// Makes a code for `user`'s mail of `kind`, keeps its hash (and the time) on the user, and
  /// puts the message in the inbox. `address` is where it goes (for `emailChangeNew` the new
  /// address), the code's hash is of that address; `change` names both addresses of an e-mail
  /// change for its text; with `deliver` false (generate_link) nothing goes to the inbox.
  /// Returns the code and the link.
  @discardableResult
  func sendMail(
    _ kind: AuthMailKind, to address: String, userID: String, redirectTo: String? = nil,
    change: (from: String, to: String)? = nil, deliver: Bool = true, on connection: PGConnection
  ) throws -> (code: OneTimeCode, link: String?) {
    let otp = try Self.newOTP()
    let hash = try Self.tokenHash(address: address.lowercased(), otp: otp)
    try FlowTokenStore(connection).setCode(kind, userID: userID, hash: hash)
    let link = kind.verifyType.map {
      verifyLink(tokenHash: hash, type: $0, redirectTo: redirectTo)
    }
    let code = OneTimeCode(otp: otp, tokenHash: hash)
    guard deliver else { return (code, link) }
    let text = Self.mailText(
      kind, otp: otp, link: link, change: change, site: settings.siteURL)
    try InboxStore(connection).deliverMail(
      InboxStore.Message(
        recipient: address, kind: kind.inboxKind, subject: kind.subject, otp: otp,
        tokenHash: hash, link: link, body: text))
    return (code, link)
  }

  /// The text of GoTrue's default templates.
  static func mailText(
    _ kind: AuthMailKind, otp: String, link: String?, change: (from: String, to: String)?,
    site: String
  ) -> String {
    let follow = link.map { "\n\n\($0)\n\nAlternatively, enter the code: \(otp)\n" } ?? ""
    switch kind {
    case .signup:
      return "Confirm your signup\n\nFollow this link to confirm your user:" + follow
    case .invite:
      return "You have been invited\n\nYou have been invited to create a user on \(site). "
        + "Follow this link to accept the invite:" + follow
    case .magiclink:
      return "Magic Link\n\nFollow this link to login:" + follow
    case .recovery:
      return "Reset Password\n\nFollow this link to reset the password for your user:" + follow
    case .emailChangeCurrent, .emailChangeNew:
      return "Confirm Change of Email\n\nFollow this link to confirm the update of your email "
        + "from \(change?.from ?? "") to \(change?.to ?? ""):" + follow
    case .reauthentication:
      return "Confirm reauthentication\n\nEnter the code: \(otp)\n"
    }
  }
}
