/// The on/off Auth settings a project keeps, by the Supabase CLI's `config.toml` meaning:
/// `confirm_email` (`[auth.email] enable_confirmations`), `signup` (`[auth] enable_signup`),
/// `anonymous` (`[auth] enable_anonymous_sign_ins`), `secure_password_change`
/// (`[auth.email] secure_password_change`), `apple` (`[auth.external.apple] enabled`), `github`
/// (`[auth.external.github] enabled`), `oauth_server` (`[auth.oauth_server] enabled`).
///
/// ```swift
/// var switches = AuthSwitches()              // GoTrue local defaults: sign-ups on, no confirmations
/// switches.apply(["confirm_email": true])     // `snm local start --confirm-email`
/// AuthSwitches.flag("signup", on: false)      // "--no-signup"
/// ```
public struct AuthSwitches: Sendable, Equatable {
  public var confirmEmail = false
  public var signup = true
  public var anonymous = true
  public var securePasswordChange = false
  public var phoneSignup = false
  public var confirmPhone = false
  public var apple = false
  public var github = false
  public var oauthServer = false

  public init() {}

  /// Switches given on a command line, by name; absent ones keep the remembered value.
  public typealias Changes = [String: Bool]

  /// The names `project.json` keeps them under, in order.
  public static let names = [
    "confirm_email", "signup", "anonymous", "secure_password_change", "phone_signup",
    "confirm_phone", "apple", "github", "oauth_server",
  ]

  public subscript(name: String) -> Bool {
    get {
      switch name {
      case "confirm_email": confirmEmail
      case "signup": signup
      case "anonymous": anonymous
      case "secure_password_change": securePasswordChange
      case "phone_signup": phoneSignup
      case "confirm_phone": confirmPhone
      case "apple": apple
      case "github": github
      case "oauth_server": oauthServer
      default: false
      }
    }
    set {
      switch name {
      case "confirm_email": confirmEmail = newValue
      case "signup": signup = newValue
      case "anonymous": anonymous = newValue
      case "secure_password_change": securePasswordChange = newValue
      case "phone_signup": phoneSignup = newValue
      case "confirm_phone": confirmPhone = newValue
      case "apple": apple = newValue
      case "github": github = newValue
      case "oauth_server": oauthServer = newValue
      default: break
      }
    }
  }

  public mutating func apply(_ changes: Changes) {
    for (name, value) in changes { self[name] = value }
  }

  /// The command-line flag that sets switch `name` to `on`: `--confirm-email`,
  /// `--no-confirm-email`, ...
  public static func flag(_ name: String, on: Bool) -> String {
    // Byte by byte: Foundation's replacingOccurrences cost 100k instructions a call, and the
    // command-line table asks for every switch's two flags at each start.
    let dashed = name.utf8.map { $0 == UInt8(ascii: "_") ? UInt8(ascii: "-") : $0 }
    return (on ? "--" : "--no-") + String(decoding: dashed, as: UTF8.self)
  }

  /// Puts the switches into the gateway's settings.
  public func configure(_ settings: inout AuthSettings) {
    settings.confirmEmail = confirmEmail
    settings.signupEnabled = signup
    settings.anonymousEnabled = anonymous
    settings.securePasswordChange = securePasswordChange
    settings.phoneEnabled = phoneSignup
    settings.confirmPhone = confirmPhone
    settings.appleEnabled = apple
    settings.githubEnabled = github
    settings.oauthServerEnabled = oauthServer
  }
}
