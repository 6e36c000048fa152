/// How many wrong guesses a code or a factor takes, whatever address they come from (the rate
/// limits are per address; a code of six digits must not fall to many addresses either): a
/// user's pending codes (e-mail and SMS) are spent after `codeTries` wrong ones against their
/// address or number, and a TOTP factor is locked for `factorLockSeconds` after `factorTries`
/// wrong codes. Wrong tries older than `window` are forgotten; a right one forgets them all.
enum AuthGuessLimits {
  static let codeTries = 5
  static let factorTries = 5
  static let factorLockSeconds = 300
  static let window = 3600

  static let factorLocked = AuthFailure(
    status: 429, code: "over_request_rate_limit",
    message:
      "Too many wrong codes for this factor: it is locked for \(factorLockSeconds / 60) minutes")
}
