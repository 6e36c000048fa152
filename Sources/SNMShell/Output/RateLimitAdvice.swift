import SNMSupabase
import SNMWire

/// What to do about a 429: which limit the request met, when to retry (the server's
/// `Retry-After` when it sent one), and how to raise the limit: `snm local start
/// --auth-rate-limit NAME=N` on the local project, the dashboard on a hosted one.
///
/// ```
///   advice: the project limits sign-ins and token refreshes per client address (token_refresh);
///   the server sent no Retry-After: the limit refills over minutes, so wait and retry; on the
///   local project raise it with `snm local start --auth-rate-limit token_refresh=1000` (0: none)
/// ```
struct RateLimitAdvice {
  /// The path the refused request went to (`/auth/v1/token`).
  var path: String?
  /// The server's error code (`over_email_send_rate_limit`).
  var code: String?
  /// The `Retry-After` header, when sent.
  var retryAfter: String?
  /// Whether the project is the local one (on this machine).
  var local: Bool

  /// The limit met: what it counts, and the `--auth-rate-limit` name when the local project has
  /// one for it.
  var limit: (what: String, name: String?) {
    switch code {
    case "over_email_send_rate_limit"?:
      return ("e-mails sent (sign-ups, magic links, recovery, e-mail changes)", "sign_in_sign_ups")
    case "over_sms_send_rate_limit"?:
      return ("text messages sent", nil)
    default: break
    }
    let path = path ?? ""
    if path.contains("/auth/v1/token") {
      return ("sign-ins and token refreshes per client address", "token_refresh")
    }
    if path.contains("/auth/v1/verify") || path.contains("/auth/v1/factors") {
      return ("code and link verifications per client address", "token_verifications")
    }
    if path.contains("/auth/v1/signup") {
      return (
        "sign-ups per client address (anonymous ones: anonymous_users)", "sign_in_sign_ups"
      )
    }
    for sending in ["/auth/v1/otp", "/auth/v1/magiclink", "/auth/v1/recover", "/auth/v1/resend"]
    where path.contains(sending) {
      return ("e-mails and codes sent per client address", "sign_in_sign_ups")
    }
    if path.contains("/auth/v1/user") {
      return ("user updates that send mail, per client address", "sign_in_sign_ups")
    }
    return ("requests", nil)
  }

  /// When to retry: the server's `Retry-After` when it is one of RFC 9110's two forms (a delay
  /// in whole seconds, `1*DIGIT`, or an HTTP date), else a word that it sent none or what it sent
  /// instead: `-5`, `abc` or a delay past a day is not passed on as advice.
  var retry: String {
    guard let value = retryAfter?.trimmingSpaces, !value.isEmpty else {
      return "the server sent no Retry-After: limits refill over minutes, so wait and retry"
    }
    if value.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) {
      if let seconds = Int(value), seconds <= Self.longestDelay {
        return "retry in \(seconds) s (Retry-After)"
      }
      return
        "the server's Retry-After asks for a wait of more than a day (\(Self.shown(value)) s): "
        + "wait and retry"
    }
    if HTTPDate.parse(value) != nil {
      return "retry after \(Self.shown(value)) (Retry-After)"
    }
    return "the server's Retry-After is neither a delay in seconds nor a date "
      + "('\(Self.shown(value))'): wait and retry"
  }

  /// The longest delay passed on as advice: a day.
  static let longestDelay = 86_400

  /// A server's value as it may be shown: its hidden characters escaped, cut at 40 characters.
  static func shown(_ value: String) -> String {
    let escaped = VisibleText.escaped(value)
    return escaped.count <= 40 ? escaped : String(escaped.prefix(40)) + "..."
  }

  /// How to raise the limit.
  var raise: String {
    let (_, name) = limit
    guard local else {
      return "a hosted project's limits are set in its dashboard (Authentication > Rate Limits)"
    }
    guard let name else { return "the local project does not limit these" }
    return "on the local project raise it: `snm local start --auth-rate-limit \(name)=1000` "
      + "(0: no limit)"
  }

  /// The advice line (without `advice: `).
  var text: String {
    let (what, name) = limit
    return "the project limits \(what)\(name.map { " (\($0))" } ?? ""); \(retry); \(raise)"
  }

  /// `\n  advice: ...` for an Auth refusal that is a 429, to follow its message; nil for any
  /// other error.
  static func line(for error: any Error, local: Bool) -> String? {
    guard let refusal = error as? SupabaseAuthError, refusal.status == 429 else { return nil }
    let advice = RateLimitAdvice(
      path: refusal.path, code: refusal.code.rawValue, retryAfter: refusal.retryAfter,
      local: local)
    return "\n  advice: " + advice.text
  }
}
