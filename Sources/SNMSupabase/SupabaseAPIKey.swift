/// What kind of project API key a client holds, and the database role requests made with it run as
/// when no one is signed in.
///
/// ```swift
/// SupabaseAPIKey("sb_publishable_...").role   // "anon"
/// SupabaseAPIKey("sb_secret_...").role        // "service_role"
/// SupabaseAPIKey(legacyAnonJWT).role          // "anon", from the JWT's `role` claim
/// ```
/// The new keys (`sb_publishable_`, `sb_secret_`) are not JWTs and are never decoded: their kind is
/// their prefix. Only a key shaped as a JWT (three base64url parts) has its claims read, without
/// checking the signature (the server does that).
public struct SupabaseAPIKey: Sendable, Hashable {
  public enum Kind: Sendable, Hashable {
    /// `sb_publishable_...`: the client key, role `anon`.
    case publishable
    /// `sb_secret_...`: the server key, role `service_role` (bypasses row-level security).
    case secret
    /// A legacy `anon` or `service_role` key: an HS256 JWT whose `role` claim says which.
    case legacyJWT
    /// Anything else (a custom gateway's key): treated as `anon`.
    case unknown
  }

  public let kind: Kind
  /// `anon`, `service_role`, or a legacy key's `role` claim.
  public let role: String

  /// The kind of `key` as a server reads it: without the spaces, tabs and line ends around it
  /// (snm sends a CR or LF in a field as a space, SNMWire's `HTTPEncoder.sanitized`, and an HTTP
  /// server strips the blanks around a field's value, RFC 9110 §5.5), so ` sb_secret_...` and a
  /// service_role JWT ending in a CRLF file's CR are server keys.
  public init(_ given: String) {
    let blank: (UInt8) -> Bool = { $0 == 0x20 || $0 == 0x09 || $0 == 0x0D || $0 == 0x0A }
    let bytes = given.utf8
    let key =
      bytes.first.map(blank) == true || bytes.last.map(blank) == true
      ? String(
        decoding: bytes.drop(while: blank).reversed().drop(while: blank).reversed(), as: UTF8.self)
      : given
    if key.hasPrefix("sb_publishable_") {
      (kind, role) = (.publishable, "anon")
    } else if key.hasPrefix("sb_secret_") {
      (kind, role) = (.secret, "service_role")
    } else if !key.hasPrefix("sb_"), Self.isJWTShaped(key) {
      kind = .legacyJWT
      role = AccessTokenClaims(jwt: key).role ?? "anon"
    } else {
      (kind, role) = (.unknown, "anon")
    }
  }

  /// Three non-empty dot-separated parts of base64url characters.
  static func isJWTShaped(_ key: String) -> Bool {
    let parts = key.utf8.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
    return parts.count == 3
      && parts.allSatisfy { part in
        !part.isEmpty
          && part.allSatisfy { byte in
            (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A)
              || (byte >= 0x61 && byte <= 0x7A) || byte == UInt8(ascii: "-")
              || byte == UInt8(ascii: "_")
          }
      }
  }
}
