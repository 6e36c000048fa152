import Foundation

extension SupabaseSession {
  /// The Unix seconds a session's dates may hold: 1970-01-01 to 9999-12-31 (what a date can be
  /// shown as, and converted to whole seconds, without overflow).
  static let validSeconds: ClosedRange<Double> = 0...253_402_300_799

  /// Why this session cannot be used (the first field that is wrong, as `bad 'expires_at'`), or
  /// nil when it can. Every number from the wire passes here before it is kept, saved or shown:
  /// an `expires_at` of 1e300 once crashed `session show` on every later run.
  /// An access token goes into every request's `Authorization` header: one holding a byte a
  /// header value cannot carry as it is (a control character such as CR or LF, a space, a
  /// non-ASCII byte) is refused, never cleaned into another token or another header.
  public var problem: String? {
    if accessToken.isEmpty { return "empty 'access_token'" }
    if accessToken.utf8.contains(where: { $0 < 0x21 || $0 > 0x7E }) {
      return "bad 'access_token' (a control character, space or non-ASCII byte, which no "
        + "request header may carry)"
    }
    if refreshToken.isEmpty { return "empty 'refresh_token'" }
    if !Self.validSeconds.contains(expiresIn) { return "bad 'expires_in'" }
    if !Self.validSeconds.contains(expiresAt.timeIntervalSince1970) { return "bad 'expires_at'" }
    if !Self.validSeconds.contains(obtainedAt.timeIntervalSince1970) { return "bad 'obtained_at'" }
    return nil
  }

  /// `seconds` (a number from the wire) as a date, or nil when it is outside ``validSeconds``
  /// (NaN and the infinities included).
  static func date(unixSeconds seconds: Double) -> Date? {
    validSeconds.contains(seconds) ? Date(timeIntervalSince1970: seconds) : nil
  }
}
