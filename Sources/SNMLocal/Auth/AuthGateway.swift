/// The GoTrue behaviour snm uses: signup (anonymous or email), token (password, refresh_token),
/// user, logout. Works on the `auth` schema through a pool connected as the cluster's owner.
///
/// ```swift
/// let auth = AuthGateway(pool: adminPool, signer: keys.signer, settings: AuthSettings(issuer: url))
/// auth.handle(request)   // request.path starts with /auth/v1
/// ```
public struct AuthGateway: Sendable {
  public let pool: PGPool
  public let signer: JWTSigner
  public let settings: AuthSettings
  let now: @Sendable () -> Double

  public init(
    pool: PGPool, signer: JWTSigner, settings: AuthSettings,
    now: @escaping @Sendable () -> Double
  ) {
    self.pool = pool
    self.signer = signer
    self.settings = settings
    self.now = now
  }

  /// Answers one `/auth/v1/*` request. Never throws: every failure is a GoTrue error response.
  public func handle(_ request: HTTPRequest) -> HTTPResponse {
    let version = AuthErrorFormat(request)
    if request.path == "/auth/v1/health" {
      return .json(
        status: 200, #"{"version":"snm","name":"GoTrue","description":"snm local auth"}"#)
    }
    return version.response(AuthFailure(status: 404, code: "not_found", message: "Not Found"))
  }
}
