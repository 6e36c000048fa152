import SNMWire

/// The GoTrue behaviour snm uses: signup (anonymous or email), token (password, refresh_token),
/// user, logout. Works on the `auth` schema through a pool connected as the cluster's owner.
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

  /// Answers one `/auth/v1/*` request. Never throws: every failure is a GoTrue error response.
  public func handle(_ request: HTTPRequest) -> HTTPResponse {
    let format = AuthErrorFormat(request)
    let route = String(request.path.dropFirst("/auth/v1".count))
    let method = request.method.uppercased()
    do {
      let response: HTTPResponse
      switch (method, route) {
      case ("GET", "/health"):
        response = .json(
          status: 200, #"{"version":"snm","name":"GoTrue","description":"snm local auth"}"#)
      case ("GET", "/settings"):
        response = .json(status: 200, Self.settingsJSON)
      case ("POST", "/signup"):
        response = try signup(try Self.body(request), from: request.remoteAddress)
      case ("POST", "/token"):
        response = try token(request, body: try Self.body(request))
      case ("GET", "/user"):
        response = try user(request)
      case ("POST", "/logout"):
        response = try logout(request)
      case (_, "/health"), (_, "/settings"), (_, "/signup"), (_, "/token"), (_, "/user"),
        (_, "/logout"):
        throw AuthFailure(status: 405, code: "method_not_allowed", message: "Method Not Allowed")
      default:
        throw AuthFailure(status: 404, code: "not_found", message: "Not Found")
      }
      return format.decorate(response)
    } catch let failure as AuthFailure {
      return format.response(failure)
    } catch let error as PGError {
      if let failure = Self.clientFailure(error) { return format.response(failure) }
      return format.response(
        AuthFailure(
          status: 500, code: "unexpected_failure", message: "Database error: \(error.message)"))
    } catch {
      return format.response(
        AuthFailure(status: 500, code: "unexpected_failure", message: "Internal server error"))
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

  /// The request body as a JSON object; GoTrue refuses anything else with 400 bad_json.
  static func body(_ request: HTTPRequest) throws(AuthFailure) -> JSONValue {
    do {
      let value = try JSONValue(parsing: request.body)
      guard value.objectValue != nil else {
        throw AuthFailure(
          status: 400, code: "bad_json",
          message: "Could not parse request body as JSON: expected an object")
      }
      return value
    } catch let error as JSONParseError {
      throw AuthFailure(
        status: 400, code: "bad_json", message: "Could not parse request body as JSON: \(error)")
    } catch let failure as AuthFailure {
      throw failure
    } catch {
      throw AuthFailure(
        status: 400, code: "bad_json", message: "Could not parse request body as JSON")
    }
  }

  static let settingsJSON = """
    {"external":{"anonymous_users":true,"email":true,"phone":false},"disable_signup":false,\
    "mailer_autoconfirm":true,"phone_autoconfirm":false,"sms_provider":""}
    """
}
