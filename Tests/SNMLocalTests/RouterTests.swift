import Foundation
import SNMWire
import Testing

@testable import SNMGateway
@testable import SNMLocal
@testable import SNMLocalAuth
@testable import SNMLocalREST

/// Records what the router hands to the REST side.
struct EchoREST: RESTHandling {
  func handle(_ request: HTTPRequest, auth: RequestAuth, database: PGPool) -> HTTPResponse {
    .json(
      status: 200,
      .object([
        .init("role", .string(auth.role)), .init("anonymous", .bool(auth.isAnonymous)),
        .init("sub", .optional(auth.userID)),
      ]))
  }
}

struct RouterCase: Sendable, CustomStringConvertible {
  var name: String
  var headers: [(String, String)]
  var target = "/rest/v1/dog_profile"
  var status: Int
  var bodyContains: String
  var description: String { name }
}

let routerSecret = Array("router-test-secret-router-test-secret".utf8)
let routerNow = 1_000_000.0

/// A router over a database that is not there; `roleStanding` stands in for its catalog of roles.
func routerFixture(
  roleStanding: (@Sendable (String) -> Router.RoleStanding?)? = nil
) throws -> (Router, ProjectKeys) {
  let keys = try ProjectKeys(secret: routerSecret, issuedAt: Int(routerNow))
  let pool = PGPool(conninfo: "host=/nonexistent dbname=none", size: 1, waitLimit: 0.1)
  let auth = AuthGateway(
    pool: pool, signer: keys.signer, settings: AuthSettings(issuer: "http://x/auth/v1"),
    now: { routerNow })
  guard let roleStanding else {
    let router = Router(
      keys: keys, signer: keys.signer, rest: EchoREST(), restPool: pool, auth: auth,
      now: { routerNow })
    return (router, keys)
  }
  let router = Router(
    keys: keys, signer: keys.signer, rest: EchoREST(), restPool: pool, auth: auth,
    assumableRoles: ["anon", "authenticated", "service_role"], audience: "authenticated",
    roleStanding: roleStanding, now: { routerNow })
  return (router, keys)
}

func token(_ members: [JSONObject.Member]) -> String {
  (try? JWTSigner(secret: routerSecret).sign(.object(members))) ?? ""
}

@Test(arguments: [
  RouterCase(
    name: "no apikey", headers: [], status: 401, bodyContains: "No API key found in request"),
  RouterCase(
    name: "unknown apikey", headers: [("apikey", "abc")], status: 401,
    bodyContains: "Invalid API key"),
  RouterCase(
    name: "anon key alone", headers: [("apikey", "ANON")], status: 200,
    bodyContains: #"{"role":"anon","anonymous":true,"sub":null}"#),
  RouterCase(
    name: "apikey in the query", headers: [], target: "/rest/v1/t?apikey=ANON", status: 200,
    bodyContains: #""role":"anon""#),
  RouterCase(
    name: "service key as bearer",
    headers: [("apikey", "ANON"), ("Authorization", "Bearer SERVICE")],
    status: 200, bodyContains: #""role":"service_role""#),
  RouterCase(
    name: "user token",
    headers: [
      ("apikey", "ANON"),
      (
        "authorization",
        "bearer " + token([.init("role", .string("authenticated")), .init("sub", .string("u1"))])
      ),
    ], status: 200, bodyContains: #"{"role":"authenticated","anonymous":false,"sub":"u1"}"#),
  RouterCase(
    name: "expired token",
    headers: [("apikey", "ANON"), ("Authorization", "Bearer " + token([.init("exp", .int(10))]))],
    status: 401, bodyContains: #""code":"PGRST303""#),
  RouterCase(
    name: "garbage token", headers: [("apikey", "ANON"), ("Authorization", "Bearer x.y")],
    status: 401, bodyContains: "Expected 3 parts in JWT; got 2"),
  RouterCase(
    name: "empty bearer", headers: [("apikey", "ANON"), ("Authorization", "Bearer ")],
    status: 401, bodyContains: "Empty JWT is sent in Authorization header"),
  RouterCase(
    name: "superuser role",
    headers: [
      ("apikey", "ANON"),
      ("Authorization", "Bearer " + token([.init("role", .string("postgres"))])),
    ],
    status: 403, bodyContains: #"permission denied to set role \"postgres\""#),
  RouterCase(
    name: "other path", headers: [], target: "/storage/v1/x", status: 404, bodyContains: "no Route"),
  RouterCase(
    name: "publishable key alone", headers: [("apikey", "PUBLISHABLE")], status: 200,
    bodyContains: #"{"role":"anon","anonymous":true,"sub":null}"#),
  RouterCase(
    name: "publishable key as its own bearer",
    headers: [("apikey", "PUBLISHABLE"), ("Authorization", "Bearer PUBLISHABLE")], status: 200,
    bodyContains: #"{"role":"anon","anonymous":true,"sub":null}"#),
  RouterCase(
    name: "secret key alone", headers: [("apikey", "SECRET")], status: 200,
    bodyContains: #"{"role":"service_role","anonymous":false,"sub":null}"#),
  RouterCase(
    name: "secret key as its own bearer",
    headers: [("apikey", "SECRET"), ("Authorization", "Bearer SECRET")], status: 200,
    bodyContains: #""role":"service_role""#),
  RouterCase(
    name: "secret key as the bearer of a publishable request",
    headers: [("apikey", "PUBLISHABLE"), ("Authorization", "Bearer SECRET")], status: 401,
    bodyContains: "Expected 3 parts in JWT; got 1"),
  RouterCase(
    name: "a user's token with the publishable key",
    headers: [
      ("apikey", "PUBLISHABLE"),
      (
        "Authorization",
        "Bearer " + token([.init("role", .string("authenticated")), .init("sub", .string("u2"))])
      ),
    ], status: 200, bodyContains: #"{"role":"authenticated","anonymous":false,"sub":"u2"}"#),
  RouterCase(
    name: "a made-up publishable key", headers: [("apikey", "sb_publishable_made_up")],
    status: 401, bodyContains: "Invalid API key"),
])
func routerGuardsTheRESTSide(_ example: RouterCase) throws {
  let (router, keys) = try routerFixture()
  var headers = HTTPHeaders()
  for (name, value) in example.headers {
    headers.append(
      name: name,
      value: value.replacingOccurrences(of: "ANON", with: keys.anonKey)
        .replacingOccurrences(of: "SERVICE", with: keys.serviceRoleKey)
        .replacingOccurrences(of: "PUBLISHABLE", with: keys.publishableKey)
        .replacingOccurrences(of: "SECRET", with: keys.secretKey))
  }
  let target = example.target.replacingOccurrences(of: "ANON", with: keys.anonKey)
  let response = router.handle(HTTPRequest(method: "GET", target: target, headers: headers))
  #expect(response.status == example.status)
  #expect(String(decoding: response.body, as: UTF8.self).contains(example.bodyContains))
  #expect(response.headers["Access-Control-Allow-Origin"] == "*")
  if example.status == 401 && example.bodyContains.contains("PGRST") {
    #expect(
      response.headers["WWW-Authenticate"]?.hasPrefix("Bearer error=\"invalid_token\"") == true)
  }
}

@Test func preflightNeedsNoKey() throws {
  let (router, _) = try routerFixture()
  let response = router.handle(HTTPRequest(method: "OPTIONS", target: "/rest/v1/dog_profile"))
  #expect(response.status == 200)
  #expect(response.headers["Access-Control-Allow-Methods"]?.contains("PATCH") == true)
}

/// A browser's preflight to REST is PostgREST's (`RESTCORS`); one without an `Origin` still gets
/// the gateway's answer.
@Test func aBrowsersRESTPreflightIsPostgRESTs() throws {
  let (router, _) = try routerFixture()
  let response = router.handle(
    HTTPRequest(
      method: "OPTIONS", target: "/rest/v1/dog_profile",
      headers: [
        "Origin": "http://app.test", "Access-Control-Request-Method": "PATCH",
        "Access-Control-Request-Headers": "apikey",
      ]))
  #expect(response.status == 200)
  #expect(response.headers["Access-Control-Allow-Origin"] == "*")
  #expect(response.headers["Access-Control-Max-Age"] == "86400")
  #expect(
    response.headers["Access-Control-Allow-Headers"]
      == "Authorization, apikey, Accept, Accept-Language, Content-Language")
  let plain = router.handle(HTTPRequest(method: "OPTIONS", target: "/rest/v1/dog_profile"))
  #expect(plain.headers["Access-Control-Max-Age"] == "3600")
}

/// Tokens for another audience, and roles that do not exist, are refused as PostgREST refuses them.
@Test func audienceAndUnknownRolesAreRefused() throws {
  let (router, keys) = try routerFixture(roleStanding: { role in
    switch role {
    case "postgres": .notGranted
    case "reporter": .granted
    default: .missing
    }
  })
  func get(_ claims: [JSONObject.Member]) -> HTTPResponse {
    var headers = HTTPHeaders()
    headers.append(name: "apikey", value: keys.anonKey)
    headers.append(name: "Authorization", value: "Bearer " + token(claims))
    return router.handle(HTTPRequest(method: "GET", target: "/rest/v1/t", headers: headers))
  }
  func body(_ response: HTTPResponse) -> String { String(decoding: response.body, as: UTF8.self) }

  let user = JSONObject.Member("role", .string("authenticated"))
  let other = get([user, .init("aud", .string("someone-else"))])
  #expect(other.status == 401)
  #expect(body(other).contains(#""code":"PGRST303""#))
  #expect(body(other).contains(#""message":"JWT not in audience""#))
  #expect(get([user, .init("aud", .string("authenticated"))]).status == 200)
  #expect(get([user]).status == 200, "a token without aud passes, as the API keys have none")

  let unknown = get([.init("role", .string("superhero"))])
  #expect(unknown.status == 401)
  #expect(body(unknown).contains(#""code":"22023""#))
  #expect(body(unknown).contains(#"role \"superhero\" does not exist"#))
  #expect(unknown.headers["WWW-Authenticate"] == "Bearer")
  let superuser = get([.init("role", .string("postgres"))])
  #expect(superuser.status == 403)
  #expect(body(superuser).contains(#""code":"42501""#))
  // Any role authenticator is granted is assumed, not only the three Supabase makes.
  let granted = get([.init("role", .string("reporter"))])
  #expect(granted.status == 200)
  #expect(body(granted).contains(#""role":"reporter""#))
}

/// The new keys: Supabase's shape, derived from the secret (the same on every start), mapped to
/// their roles' claims and legacy JWTs; never a JWT themselves.
@Test func theNewKeysHaveTheirShapeAndRoles() throws {
  let keys = try ProjectKeys(secret: routerSecret, issuedAt: Int(routerNow))
  let again = try ProjectKeys(secret: routerSecret, issuedAt: Int(routerNow))
  #expect(keys.publishableKey == again.publishableKey && keys.secretKey == again.secretKey)
  let other = try ProjectKeys(secret: Array("another-secret-another-secret-xx".utf8), issuedAt: 1)
  #expect(other.publishableKey != keys.publishableKey)
  for (key, prefix) in [(keys.publishableKey, "sb_publishable_"), (keys.secretKey, "sb_secret_")] {
    #expect(key.hasPrefix(prefix))
    let rest = key.dropFirst(prefix.count)
    #expect(
      rest.count == 31
        && rest.split(separator: "_", omittingEmptySubsequences: false)
          .map(\.count).suffix(1) == [8]
    )
    #expect(!key.contains("."))
  }
  #expect(keys.claims(forAPIKey: keys.publishableKey) == keys.claims(forAPIKey: keys.anonKey))
  #expect(keys.claims(forAPIKey: keys.secretKey) == keys.claims(forAPIKey: keys.serviceRoleKey))
  #expect(keys.jwt(forOpaqueKey: keys.publishableKey) == keys.anonKey)
  #expect(keys.jwt(forOpaqueKey: keys.secretKey) == keys.serviceRoleKey)
  #expect(keys.jwt(forOpaqueKey: keys.anonKey) == nil)
  let (router, _) = try routerFixture()
  #expect(router.projectKeyAuth(keys.secretKey) == nil, "not a JWT: no auth of its own")
}

/// The project's own keys skip verification but keep its outcome: the same role and claims, and
/// an expired key is still refused.
@Test func projectKeysAreKnownWithoutVerifying() throws {
  let (router, keys) = try routerFixture()
  let service = try #require(router.projectKeyAuth(keys.serviceRoleKey))
  #expect(service.role == "service_role")
  #expect(service.claimsJSON == keys.claims(forAPIKey: keys.serviceRoleKey)?.serialized())
  #expect(router.projectKeyAuth(keys.anonKey)?.isAnonymous == true)
  #expect(router.projectKeyAuth(keys.anonKey + "x") == nil)
  #expect(router.projectKeyAuth(token([.init("role", .string("anon"))])) == nil)
  // `Bearer <key>` as supabase-js sends it is known at once; anything else is read as before.
  #expect(router.projectKeyBearer("Bearer " + keys.serviceRoleKey) == service)
  #expect(router.projectKeyBearer("Bearer " + keys.anonKey)?.isAnonymous == true)
  #expect(router.projectKeyBearer("bearer " + keys.anonKey) == nil)
  #expect(router.projectKeyBearer("Bearer " + keys.anonKey + " ") == nil)
  #expect(router.projectKeyBearer("Bearer " + keys.secretKey) == nil)

  let pool = PGPool(conninfo: "host=/nonexistent dbname=none", size: 1, waitLimit: 0.1)
  let later = routerNow + 11 * 365 * 24 * 3600
  let auth = AuthGateway(
    pool: pool, signer: keys.signer, settings: AuthSettings(issuer: "http://x/auth/v1"),
    now: { later })
  let expired = Router(
    keys: keys, signer: keys.signer, rest: EchoREST(), restPool: pool, auth: auth, now: { later })
  #expect(expired.projectKeyAuth(keys.anonKey) == nil)
  #expect(expired.projectKeyBearer("Bearer " + keys.anonKey) == nil)
  var headers = HTTPHeaders()
  headers.append(name: "apikey", value: keys.anonKey)
  headers.append(name: "Authorization", value: "Bearer " + keys.anonKey)
  let response = expired.handle(HTTPRequest(method: "GET", target: "/rest/v1/t", headers: headers))
  #expect(response.status == 401)
  #expect(String(decoding: response.body, as: UTF8.self).contains("JWT expired"))
}

/// `Authorization` values and the token the router reads from them (nil: not a Bearer token);
/// the byte-wise fast path and the general one agree.
@Test(
  arguments: [
    ("Bearer abc.def", "abc.def"), ("bearer abc", "abc"), ("  BEARER   abc  ", "abc"),
    ("Bearer", ""), ("Bearer ", ""), ("Basic abc", nil), ("Bearerabc", nil), ("Bearer\tabc", nil),
    ("Bearer \u{301}x", nil), ("B\u{435}arer abc", nil), ("Bearer 두부", "두부"),
    ("bEaReR x", "x"), ("Bearer a b", "a b"), ("Bearer  abc", "abc"), ("Bearer abc\t", "abc"),
    ("Bearer abc ", "abc"), ("Bearer abc\u{301}", "abc\u{301}"), ("Xearer abc", nil),
    ("Bearer=abc", nil),
  ] as [(String, String?)])
func theBearerTokenIsRead(_ header: String, _ token: String?) {
  #expect(RequestAuth.bearerToken(header) == token)
}
