import Testing

@testable import SNMSupabase

/// The kind of a project key, and the role it runs as, without decoding a new-format key.
@Suite struct SupabaseAPIKeyTests {
  /// {"alg":"HS256","typ":"JWT"}.{"role":"service_role"}.sig and the same with role anon.
  static let serviceJWT =
    "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJyb2xlIjoic2VydmljZV9yb2xlIn0.c2ln"
  static let anonJWT = "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJyb2xlIjoiYW5vbiJ9.c2ln"

  @Test(arguments: [
    ("sb_publishable_ACJWlzQHlZjBrEguHvfOxg_3BJgxAaH", SupabaseAPIKey.Kind.publishable, "anon"),
    ("sb_secret_N7UND0UgjKTVK-Uodkm0Hg_xSvEMPvz", .secret, "service_role"),
    (serviceJWT, .legacyJWT, "service_role"),
    (anonJWT, .legacyJWT, "anon"),
    // Shaped to decode as {"role":"service_role"}: a new key is never decoded.
    ("sb_publishable_eyJhbGciOiJub25lIn0.eyJyb2xlIjoic2VydmljZV9yb2xlIn0.x", .publishable, "anon"),
    ("sb_other_" + serviceJWT, .unknown, "anon"),
    ("not-a-key", .unknown, "anon"),
    ("a.b", .unknown, "anon"),
    ("a..c", .unknown, "anon"),
    ("e30.e30.x", .legacyJWT, "anon"),
  ])
  func aKeyIsKnownByItsShape(key: String, kind: SupabaseAPIKey.Kind, role: String) {
    let parsed = SupabaseAPIKey(key)
    #expect(parsed.kind == kind)
    #expect(parsed.role == role)
  }
}
