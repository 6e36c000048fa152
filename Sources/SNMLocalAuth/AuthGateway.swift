import SNMGateway
import SNMWire

/// The GoTrue behaviour snm serves: sign-up and sign-in, the account flows that mail a code
/// (to the local inbox), MFA with TOTP, the admin API. Works on the `auth` schema through a pool
/// connected as the cluster's owner.
///
/// ```swift
/// let auth = AuthGateway(pool: adminPool, signer: keys.signer, settings: AuthSettings(issuer: url),
///                        now: { Date().timeIntervalSince1970 })
/// auth.handle(request)   // request.path starts with /auth/v1
/// ```
public struct AuthGateway: Sendable {
  public let pool: PGPool
  public let signer: JWTSigner
  public let settings: AuthSettings
  let now: @Sendable () -> Double
  /// GoTrue's per-address limits on sign-ins, refreshes and sign-ups.
  let limiter: AuthRateLimiter
  /// The project's stand-in for Apple's id_tokens (`snm local idp token`); nil: none.
  package var testIssuer: TestIdentityProvider?
  /// Real providers' keys for the id_token grant, by provider (`[auth.external.apple] jwks`): a
  /// provider named here takes only tokens its keys signed, never the test issuer's.
  package var providerKeys: [String: ProviderKeys] = [:]

  public init(
    pool: PGPool, signer: JWTSigner, settings: AuthSettings,
    now: @escaping @Sendable () -> Double
  ) {
    self.pool = pool
    self.signer = signer
    self.settings = settings
    self.now = now
    self.limiter = AuthRateLimiter(limits: settings.rateLimits, now: now)
  }

  /// Answers one `/auth/v1/*` request. Never throws: every failure is a GoTrue error response
  /// (an unknown route GoTrue's plain `404 page not found`).
  public func handle(_ request: HTTPRequest) -> HTTPResponse {
    let format = AuthErrorFormat(request)
    do {
      return try dispatch(request, route: AuthRoute(method: request.method, path: request.path))
    } catch let failure as AuthFailure {
      if failure == .notFound { return Self.notFoundResponse }
      return format.response(failure)
    } catch let error as PGError {
      if let failure = Self.clientFailure(error) { return format.response(failure) }
      return format.response(.unexpectedFailure("Database error: \(error.message)"))
    } catch {
      return format.response(.internalError)
    }
  }

  /// GoTrue's router's answer to a path it has no route for.
  static let notFoundResponse: HTTPResponse = {
    var headers = HTTPHeaders()
    headers["Content-Type"] = "text/plain; charset=utf-8"
    headers["X-Content-Type-Options"] = "nosniff"
    return HTTPResponse(status: 404, headers: headers, body: Array("404 page not found\n".utf8))
  }()

  /// Runs `route`'s handler, after its gate (`AuthRoute.Gate`).
  func dispatch(_ request: HTTPRequest, route: AuthRoute) throws -> HTTPResponse {
    let client = request.remoteAddress
    switch route.gate {
    case .admin:
      try requireAdmin(request)
      return try AuthAdminAPI(gateway: self).handle(request, route: route)
    case .user:
      return try AuthMFA(gateway: self).handle(
        request, route: route, claims: try bearerClaims(request))
    case .none:
      break
    }
    switch route {
    case .health:
      return .json(
        status: 200, #"{"version":"snm","name":"GoTrue","description":"snm local auth"}"#)
    case .settings: return .json(status: 200, settings.json)
    case .signup: return try signup(try Self.body(request), from: client)
    case .token: return try token(request, body: try Self.body(request))
    case .user: return try user(request)
    case .updateUser: return try updateUser(request, body: try Self.body(request))
    case .logout: return try logout(request)
    case .otp: return try otp(try Self.body(request), from: client, magicLinkRoute: false)
    case .magicLink: return try otp(try Self.body(request), from: client, magicLinkRoute: true)
    case .recover: return try recover(try Self.body(request), from: client)
    case .resend: return try resend(try Self.body(request), from: client)
    case .reauthenticate: return try reauthenticate(request)
    case .verify: return try verifyPost(try Self.body(request), from: client)
    case .verifyLink: return try verifyGet(request)
    case .invite: return try AuthAdminAPI(gateway: self).invite(request)
    case .authorize: return try AuthProviderFlow(gateway: self).authorize(request)
    case .callback: return AuthProviderFlow(gateway: self).callback(request)
    case .testProviderPage: return try TestProviderPage(gateway: self).handle(request)
    case .sso: throw AuthFailure.samlDisabled
    case .identities:
      // GoTrue's order: the caller's session first, as for every `/user` route.
      _ = try user(request)
      throw AuthFailure.manualLinkingDisabled
    case .methodNotAllowed: throw AuthFailure.methodNotAllowed
    default: throw AuthFailure.notFound
    }
  }

  /// A database error that the request's own values caused (class 22, data exception: a NUL
  /// character, an escape jsonb refuses), as a 400; nil for the server's own failures.
  static func clientFailure(_ error: PGError) -> AuthFailure? {
    guard error.kind == .server, let state = error.sqlState, state.hasPrefix("22") else {
      return nil
    }
    switch state {
    case "22021": return .invalidValue("a value contains a NUL character")
    case "22P05": return .invalidValue("the JSON holds \\u0000, which Postgres cannot store")
    default: return .invalidValue(error.message)
    }
  }

  /// The request body as a JSON object; GoTrue refuses anything else with 400 bad_json. A
  /// `redirect_to` query parameter (where GoTrue's clients put it) joins the body's members.
  static func body(_ request: HTTPRequest) throws(AuthFailure) -> JSONValue {
    do {
      var value = try JSONValue(parsing: request.body)
      if case .object(var members) = value, members["redirect_to"] == nil,
        let redirect = request.queryValue("redirect_to")
      {
        members.append("redirect_to", .string(redirect))
        value = .object(members)
      }
      guard value.objectValue != nil else {
        throw AuthFailure.badJSON("expected an object")
      }
      return value
    } catch let error as JSONParseError {
      throw AuthFailure.badJSON("\(error)")
    } catch let failure as AuthFailure {
      throw failure
    } catch {
      throw AuthFailure.badJSON()
    }
  }
}
