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
    "secret", "code", "code_verifier", "api_key", "apikey", "service_role_key", "anon_key", "otp",
  ]

  /// Whether a member or parameter called `name` holds a secret.
  public static func isSecret(_ name: String) -> Bool { names.contains(name.lowercased()) }

  /// `value` with each secret member's value (but a null) replaced, at any depth.
  public static func masked(_ value: JSONValue) -> JSONValue {
    switch value {
    case .object(let members):
      var object = JSONObject()
      for (key, member) in members {
        object.append(
          key, isSecret(key) && member != .null ? .string(replacement) : masked(member))
      }
      return .object(object)
    case .array(let elements):
      return .array(elements.map(masked))
    default:
      return value
    }
  }
}
