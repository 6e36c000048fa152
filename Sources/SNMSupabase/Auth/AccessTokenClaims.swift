import Foundation

/// The claims of a GoTrue access token that snm shows, read from the JWT's payload without
/// checking its signature (the server checks it; the client only displays).
///
/// ```swift
/// let claims = AccessTokenClaims(jwt: session.accessToken)
/// claims.role        // "authenticated"
/// claims.sessionID   // "c289fa70-..."
/// ```
/// A token that is not a readable JWT gives empty claims, never an error.
public struct AccessTokenClaims: Sendable, Hashable {
  /// `sub`: the user id.
  public var subject: String?
  /// `role`: `authenticated`, `anon`, `service_role`.
  public var role: String?
  /// `session_id`: the server's session row.
  public var sessionID: String?
  /// `is_anonymous`.
  public var isAnonymous: Bool?
  /// `exp` as a date.
  public var expiresAt: Date?
  /// `iat` as a date.
  public var issuedAt: Date?
  /// `aal`: `aal1`, or `aal2` once a second factor was verified.
  public var aal: String?
  /// `amr`: how the user signed in (`password`, `otp`, `totp`, ...), oldest first.
  public var methods: [String] = []

  public init(jwt: String) {
    let parts = jwt.split(separator: ".", omittingEmptySubsequences: false)
    guard parts.count == 3, let payload = Self.decodeBase64URL(parts[1]),
      let object = (try? JSONSerialization.jsonObject(with: payload)) as? [String: Any]
    else { return }
    subject = object["sub"] as? String
    role = object["role"] as? String
    sessionID = object["session_id"] as? String
    isAnonymous = object["is_anonymous"] as? Bool
    aal = object["aal"] as? String
    methods =
      (object["amr"] as? [Any])?.compactMap { ($0 as? [String: Any])?["method"] as? String }
      ?? []
    // Checked: a number no date can hold is no date at all.
    expiresAt = (object["exp"] as? NSNumber).flatMap {
      SupabaseSession.date(unixSeconds: $0.doubleValue)
    }
    issuedAt = (object["iat"] as? NSNumber).flatMap {
      SupabaseSession.date(unixSeconds: $0.doubleValue)
    }
  }

  /// Base64url without padding, as JWTs write it.
  static func decodeBase64URL(_ text: Substring) -> Data? {
    var base64 = text.replacingOccurrences(of: "-", with: "+")
      .replacingOccurrences(of: "_", with: "/")
    while base64.count % 4 != 0 { base64 += "=" }
    return Data(base64Encoded: base64)
  }
}
