import SNMGateway
import SNMLocalAuth
import SNMLocalFunctions
import SNMLocalREST
import SNMLocalRealtime
import SNMLocalStorage
import SNMWire

/// The gateway in front of the services, as Supabase's API gateway: CORS, `apikey`, JWT, routes.
///
/// ```swift
/// let router = Router(keys: keys, signer: signer, rest: RESTGateway(), restPool: pool, auth: auth)
/// let server = HTTPServer(port: 54321, handler: router.handle)
/// ```
/// Each service (`GatewayService`: REST, Auth, Storage, the inbox) is found by its path prefix
/// and called the same way, after the gateway admitted the request as the service asks
/// (`GatewayAdmission`): `/rest/v1/*` with a verified `RequestAuth`, `/auth/v1/*` with an API
/// key, `/storage/v1/*` with whoever the token says. Without `apikey` (header or query) the
/// answer is 401 as on Supabase; a bad REST JWT is 401 PGRST301/PGRST303 as PostgREST answers.
public struct Router: Sendable {
  public let keys: ProjectKeys
  public let signer: JWTSigner
  public let rest: any RESTHandling
  public let restPool: PGPool
  public let auth: AuthGateway
  /// Roles a token may ask for without asking the database: the project keys' and GoTrue's
  /// (granted to `authenticator` when the project is made). Any other role is looked up
  /// (`roleStanding`) and assumed when `authenticator` is a member of it, as PostgREST's
  /// `SET ROLE` allows.
  public let assumableRoles: Set<String>
  /// The `aud` a user token must name when it has one (GoTrue issues `authenticated`); the API keys
  /// carry no `aud`. A token for another audience is 401 PGRST303 "JWT not in audience".
  public let audience: String?
  /// Where a role other than `assumableRoles` stands in the database (nil: cannot tell).
  /// PostgREST assumes any role `authenticator` may `SET ROLE` to, answers 401 22023 for a role
  /// that does not exist and 403 42501 for one it is not a member of.
  let roleStanding: @Sendable (String) -> RoleStanding?
  let now: @Sendable () -> Double
  /// The `RequestAuth` of each project key by role, built once: most requests carry one of the
  /// keys (as `apikey`, and as the Bearer token when no one is signed in), so they skip the
  /// signature check and the claims serialisation.
  let keyAuths: [String: RequestAuth]
  /// The Authorization header supabase-js sends with a project key (`Bearer <key>`), for each
  /// legacy key whose role is assumable: its auth and expiry, so that such a header is known by
  /// one comparison (`projectKeyBearer`), without taking the token out or reading its claims.
  /// Kept as three arrays in the same order: reading an element of an array of tuples copied
  /// the whole tuple (the header and the auth) for each field read.
  let keyBearerHeaders: [String]
  let keyBearerAuths: [RequestAuth]
  let keyBearerExpiries: [Double?]
  /// Other Bearer tokens (users' sessions) already verified: a client sends the same one each time.
  let tokens = JWTCache()
  /// `/storage/v1/*`, when the project serves Storage.
  public var storage: StorageGateway? {
    didSet {
      listServices()
    }
  }
  /// `/realtime/v1/*`, when the project serves Realtime.
  public var realtime: RealtimeService? {
    didSet {
      listServices()
    }
  }
  /// `/functions/v1/*`, when the project serves Edge Functions.
  package var functions: FunctionsService? {
    didSet {
      listServices()
    }
  }
  let restService: RESTService
  let authService: AuthService
  let inbox: InboxService
  /// Every service, called the same way (`GatewayService`); listed again when one is set.
  private(set) var services: [any GatewayService] = []

  public init(
    keys: ProjectKeys, signer: JWTSigner, rest: any RESTHandling, restPool: PGPool,
    auth: AuthGateway, assumableRoles: Set<String> = ["anon", "authenticated", "service_role"],
    audience: String? = "authenticated", now: @escaping @Sendable () -> Double
  ) {
    self.init(
      keys: keys, signer: signer, rest: rest, restPool: restPool, auth: auth,
      assumableRoles: assumableRoles, audience: audience,
      roleStanding: { role in Router.roleStanding(role, in: restPool) }, now: now)
  }

  init(
    keys: ProjectKeys, signer: JWTSigner, rest: any RESTHandling, restPool: PGPool,
    auth: AuthGateway, assumableRoles: Set<String>, audience: String?,
    roleStanding: @escaping @Sendable (String) -> RoleStanding?,
    now: @escaping @Sendable () -> Double
  ) {
    self.keys = keys
    self.signer = signer
    self.rest = rest
    self.restPool = restPool
    self.auth = auth
    self.assumableRoles = assumableRoles
    self.audience = audience
    self.roleStanding = roleStanding
    self.now = now
    var keyAuths: [String: RequestAuth] = [:]
    for key in [keys.anonKey, keys.serviceRoleKey] {
      if let claims = keys.claims(forAPIKey: key), let role = claims["role"]?.stringValue {
        keyAuths[role] = RequestAuth(role: role, claims: claims, isAnonymous: role == "anon")
      }
    }
    self.keyAuths = keyAuths
    var keyBearers: [(header: String, auth: RequestAuth, expiry: Double?)] = []
    for key in [keys.anonKey, keys.serviceRoleKey] {
      if let claims = keys.claims(forAPIKey: key), let role = claims["role"]?.stringValue,
        let known = keyAuths[role], assumableRoles.contains(role)
      {
        keyBearers.append(("Bearer " + key, known, claims["exp"]?.doubleValue))
      }
    }
    keyBearerHeaders = keyBearers.map(\.header)
    keyBearerAuths = keyBearers.map(\.auth)
    keyBearerExpiries = keyBearers.map(\.expiry)
    restService = RESTService(handler: rest, pool: restPool)
    authService = AuthService(gateway: auth, jwks: keys.signer.jwks)
    inbox = InboxService(
      gateway: auth,
      isServiceCredential: { credential in
        Router.isServiceCredential(credential, keys: keys, signer: signer, now: now)
      })
    listServices()
  }

  /// Answers one request. Never throws: every failure is a response.
  public func handle(_ request: HTTPRequest) -> HTTPResponse {
    var response = route(request)
    if response.headers.first(lowercased: "access-control-allow-origin") == nil {
      response.headers.append(name: "Access-Control-Allow-Origin", value: "*")
    } else {
      response.headers["Access-Control-Allow-Origin"] = "*"
    }
    return response
  }

  func route(_ request: HTTPRequest) -> HTTPResponse {
    guard let service = services.first(where: { Self.matches(request.path, prefix: $0.prefix) })
    else {
      return .json(status: 404, #"{"message":"no Route matched with those values"}"#)
    }
    if request.method == "OPTIONS", !service.answersPreflights {
      return service.preflight(request) ?? Self.preflight(request)
    }
    if let answer = service.openResponse(request) { return answer }
    switch admit(request, as: service.admission) {
    case .success(let admitted):
      // The request itself when admitting changed nothing (most): passed on, not copied.
      if let changed = admitted.changed { return service.respond(changed, caller: admitted.caller) }
      return service.respond(request, caller: admitted.caller)
    case .failure(let refusal): return refusal.response
    }
  }

  /// Lists the services in the order their prefixes are tried: REST, Auth, Storage, Realtime
  /// and Functions (when served), the inbox.
  private mutating func listServices() {
    var services: [any GatewayService] = [restService, authService]
    if let storage { services.append(storage) }
    if let realtime { services.append(realtime) }
    if let functions { services.append(functions) }
    services.append(inbox)
    self.services = services
  }

  /// Admits a request as `admission` says: who calls, and the request as the service sees it
  /// when that is not `request` itself (a new-format API key turned into its role's JWT; nil:
  /// unchanged, so the request is not copied), or the gateway's refusal.
  func admit(
    _ request: HTTPRequest, as admission: GatewayAdmission
  ) -> Result<(caller: GatewayCaller, changed: HTTPRequest?), Refusal> {
    switch admission {
    case .open:
      return .success((.nobody, nil))
    case .optionalKey:
      return storageCaller(request).map {
        caller, request -> (caller: GatewayCaller, changed: HTTPRequest?) in
        (
          GatewayCaller(
            auth: caller.auth, isAuthenticated: caller.isAuthenticated,
            tokenError: caller.tokenError), request
        )
      }
    case .apiKey, .verifiedRole:
      break
    }
    guard let apiKey = request.headers.first(lowercased: "apikey") ?? request.queryValue("apikey")
    else {
      return .failure(
        Refusal(
          response: .json(
            status: 401,
            #"{"message":"No API key found in request","hint":"No `apikey` request header or url param was found."}"#
          )))
    }
    guard let keyClaims = keys.claims(forAPIKey: apiKey) else {
      return .failure(.invalidAPIKey)
    }
    // A new-format key is not a JWT: as Supabase's gateway does, the services behind get its
    // role's JWT in Authorization when the request carries none, or carries the key itself there
    // (supabase-js sends `Bearer <key>` before anyone signs in). A user's token is kept.
    if let roleToken = keys.jwt(forOpaqueKey: apiKey) {
      let authorization = request.headers.first(lowercased: "authorization")
      if authorization == nil || authorization.flatMap(RequestAuth.bearerToken) == apiKey {
        var request = request
        request.headers["Authorization"] = "Bearer " + roleToken
        return admitted(request, keyClaims: keyClaims, as: admission).map { ($0, request) }
      }
    }
    return admitted(request, keyClaims: keyClaims, as: admission).map { ($0, nil) }
  }

  /// The rest of `admit` once the request is as the service sees it: who calls (the role it
  /// runs as, when the service asks for one).
  func admitted(
    _ request: HTTPRequest, keyClaims: JSONValue, as admission: GatewayAdmission
  ) -> Result<GatewayCaller, Refusal> {
    guard admission == .verifiedRole else { return .success(.nobody) }
    switch restAuth(request, keyClaims: keyClaims) {
    case .success(let auth):
      return .success(GatewayCaller(auth: auth, isAuthenticated: true))
    case .failure(let error):
      return .failure(Refusal(response: .jwtFailure(error)))
    }
  }

  /// Whether `credential` (an `apikey` or Bearer token) carries the service role: one of the
  /// project's service keys, or a JWT of the project's with role `service_role` (what GoTrue's
  /// admin routes accept).
  func isServiceCredential(_ credential: String) -> Bool {
    Self.isServiceCredential(credential, keys: keys, signer: signer, now: now)
  }

  static func isServiceCredential(
    _ credential: String, keys: ProjectKeys, signer: JWTSigner, now: () -> Double
  ) -> Bool {
    if let claims = keys.claims(forAPIKey: credential) {
      return claims["role"]?.stringValue == "service_role"
    }
    guard let claims = try? signer.verify(credential, now: now()) else { return false }
    return claims["role"]?.stringValue == "service_role"
  }

  /// The role and claims a REST request runs with: the Bearer token, else the `apikey`'s claims.
  func restAuth(_ request: HTTPRequest, keyClaims: JSONValue) -> Result<RequestAuth, JWTError> {
    var claims = keyClaims
    var claimsText: String?
    let authorization = request.headers.first(lowercased: "authorization")
    if let authorization, let known = projectKeyBearer(authorization) { return .success(known) }
    if let header = authorization, let token = RequestAuth.bearerToken(header) {
      if let known = projectKeyAuth(token) { return .success(known) }
      do {
        (claims, claimsText) = try tokens.verifiedClaims(
          token, signer: signer, now: now(), audience: audience)
      } catch {
        return .failure(error)
      }
    } else if let role = keyClaims["role"]?.stringValue, let known = keyAuths[role],
      assumableRoles.contains(role)
    {
      return .success(known)
    }
    let role = claims["role"]?.stringValue ?? "anon"
    if !assumableRoles.contains(role) {
      switch roleStanding(role) {
      case .granted: break
      case .missing: return .failure(.unknownRole(role))
      case .notGranted, nil: return .failure(.roleNotAssumable(role))
      }
    }
    return .success(
      RequestAuth(
        role: role, claims: claims, claimsJSON: claimsText ?? claims.serialized(),
        isAnonymous: role == "anon"))
  }

  /// The prepared auth when `token` is one of the project's keys, still valid and assumable;
  /// nil otherwise (then the token is verified as any other, with the same errors).
  /// A new-format key is no JWT: one left in Authorization (not the apikey's own, which `route`
  /// swapped) fails as any other non-JWT would, so `sb_secret_` there never lifts a
  /// `sb_publishable_` request.
  func projectKeyAuth(_ token: String) -> RequestAuth? {
    guard keys.jwt(forOpaqueKey: token) == nil, let claims = keys.claims(forAPIKey: token),
      let role = claims["role"]?.stringValue,
      let known = keyAuths[role], assumableRoles.contains(role)
    else { return nil }
    if let expiry = claims["exp"]?.doubleValue, expiry <= now() { return nil }
    return known
  }

  /// The prepared auth when `header` is exactly `Bearer <key>` for one of the project's legacy
  /// keys, still valid and assumable (what `projectKeyAuth` gives that token); nil otherwise,
  /// and the header is then read the usual way.
  func projectKeyBearer(_ header: String) -> RequestAuth? {
    // The headers apart: only the auth that matches is copied (it holds the claims).
    for index in keyBearerHeaders.indices
    where Crypto.constantTimeEqual(header, keyBearerHeaders[index]) {
      if let expiry = keyBearerExpiries[index], expiry <= now() { return nil }
      return keyBearerAuths[index]
    }
    return nil
  }

  /// Whether a role exists and whether `authenticator` may become it.
  public enum RoleStanding: Sendable, Equatable {
    case granted, notGranted, missing
  }

  /// Looks `role` up as the pool's user (`authenticator`) sees it: `pg_has_role(..., 'MEMBER')`
  /// is what `SET ROLE` checks (direct or through other roles, and the user itself). Nil when
  /// the database cannot be asked.
  static func roleStanding(_ role: String, in pool: PGPool) -> RoleStanding? {
    try? pool.withConnection { connection -> RoleStanding in
      let rows = try connection.execute(
        "select pg_catalog.pg_has_role(current_user, r.oid, 'MEMBER')::text"
          + " from pg_catalog.pg_roles r where r.rolname = $1", [role]
      ).rows
      guard let first = rows.first else { return .missing }
      return (first.first ?? nil) == "true" ? .granted : .notGranted
    }
  }

  static func matches(_ path: String, prefix: String) -> Bool {
    // As `path == prefix || path.hasPrefix(prefix + "/")`, compared as bytes without building
    // `prefix + "/"` (for ASCII prefixes, every service's, unless a mark follows the `/`).
    var path = path
    var prefix = prefix
    let verdict = prefix.withUTF8 { expected in
      path.withUTF8 { bytes -> Bool? in
        for byte in expected where byte >= 0x80 { return nil }
        guard bytes.count >= expected.count else { return false }
        for index in 0..<expected.count where bytes[index] != expected[index] { return false }
        guard bytes.count > expected.count else { return true }
        guard bytes[expected.count] == UInt8(ascii: "/") else { return false }
        // A mark combining with that `/` would make it another character.
        if bytes.count > expected.count + 1, bytes[expected.count + 1] >= 0x80 { return nil }
        return true
      }
    }
    return verdict ?? (path == prefix || path.hasPrefix(prefix + "/"))
  }
}
