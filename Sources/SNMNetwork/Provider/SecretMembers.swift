import SNMWire

/// The JSON members and query parameters whose values are secrets (passwords, tokens, codes,
/// nonces, keys), masked the same way wherever a request is shown: `snm explain` of an Auth or
/// admin statement and `snm test --verbose` traces and reports.
///
/// ```swift
/// SecretMembers.masked(["email": "kim@example.com", "password": "hunter2"])
/// // {"email": "kim@example.com", "password": "********"}
/// ```
public enum SecretMembers {
  /// What a secret value shows as.
  public static let replacement = "********"

  /// Member names (compared in lower case) whose values are never shown.
  public static let names: Set<String> = [
    "password", "new_password", "current_password", "access_token", "refresh_token",
    "provider_token", "provider_refresh_token", "token", "token_hash", "id_token", "nonce",
    "secret", "code", "code_verifier", "auth_code", "api_key", "apikey", "service_role_key",
    "anon_key", "otp",
  ]

  /// Member names that hold a secret in what is sent (an MFA or PKCE `code`) but in a server's
  /// answer name an error code (PostgREST's SQLSTATE `42501`, `PGRST116`; Auth's status), which
  /// is what a failure is read by.
  public static let sentOnly: Set<String> = ["code"]

  /// Whether a member or parameter called `name` holds a secret (in an `answer`: one a server
  /// sends back, where a `code` is an error code).
  public static func isSecret(_ name: String, answer: Bool = false) -> Bool {
    let lower = name.lowercased()
    return names.contains(lower) && !(answer && sentOnly.contains(lower))
  }

  /// `value` with each secret member's value (but a null) replaced, at any depth; `answer` for a
  /// server's answer (its `code` shown).
  public static func masked(_ value: JSONValue, answer: Bool = false) -> JSONValue {
    switch value {
    case .object(let members):
      var object = JSONObject()
      for (key, member) in members {
        object.append(
          key,
          isSecret(key, answer: answer) && member != .null
            ? .string(replacement) : masked(member, answer: answer))
      }
      return .object(object)
    case .array(let elements):
      return .array(elements.map { masked($0, answer: answer) })
    default:
      return value
    }
  }
}
