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
  /// `app_metadata.provider`: the provider the user signed up with (`email`, `apple`, ...).
  public var userProvider: String?
  /// `app_metadata.providers`: every provider the user has, in the order they were linked.
  public var userProviders: [String] = []
  /// `email` and `phone`.
  public var email: String?
  public var phone: String?

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
    let appMetadata = object["app_metadata"] as? [String: Any]
    userProvider = appMetadata?["provider"] as? String
    userProviders = (appMetadata?["providers"] as? [Any])?.compactMap { $0 as? String } ?? []
    email = object["email"] as? String
    phone = object["phone"] as? String
    // Checked: a number no date can hold is no date at all.
    expiresAt = (object["exp"] as? NSNumber).flatMap {
      SupabaseSession.date(unixSeconds: $0.doubleValue)
    }
    issuedAt = (object["iat"] as? NSNumber).flatMap {
      SupabaseSession.date(unixSeconds: $0.doubleValue)
    }
  }

  /// The provider this session signed in with, from its `amr`: a password, code or link is
  /// `email` (`phone` for a user with a number and no address), `anonymous`, `sso`; an OAuth or
  /// id_token sign-in (`oauth`) names no provider there (GoTrue records one only for SSO), so it
  /// is the user's provider, or the newest one linked when the user signed up by e-mail or
  /// phone. Nil when the token has no first-factor method.
  public var signInProvider: String? {
    let firstFactors = methods.filter { $0 != "totp" && $0 != "mfa/totp" && $0 != "mfa/phone" }
    guard let method = firstFactors.last else { return nil }
    switch method {
    case "anonymous": return "anonymous"
    case "sso/saml": return "sso"
    case "sms", "phone_change": return "phone"
    case "oauth":
      // A provider's name as GoTrue writes them (`apple`, `custom:acme`); anything else is no
      // name to print.
      let named = { (name: String) in
        !name.isEmpty && name.utf8.count <= 64
          && name.utf8.allSatisfy { byte in
            (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x30 && byte <= 0x39)
              || byte == UInt8(ascii: ":") || byte == UInt8(ascii: "_")
              || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
          }
      }
      let others = userProviders.filter { named($0) && $0 != "email" && $0 != "phone" }
      if let userProvider, named(userProvider), userProvider != "email", userProvider != "phone" {
        return userProvider
      }
      return others.last ?? "oauth"
    case "web3": return "web3"
    default:
      if (email ?? "").isEmpty, !(phone ?? "").isEmpty { return "phone" }
      return "email"
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
