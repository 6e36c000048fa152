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

  /// The text of GoTrue's default templates.
  func text(otp: String, link: String?, change: (from: String, to: String)?, site: String)
    -> String
  {
    let follow = link.map { "\n\n\($0)\n\nAlternatively, enter the code: \(otp)\n" } ?? ""
    switch self {
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
