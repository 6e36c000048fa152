/// Where a local project lives and how it runs (`--dir --port --migrations --jwt-expiry`
/// `--refresh-reuse-interval --auth-rate-limit`).
///
/// ```swift
/// var options = LocalProjectOptions()          // default dir, port 54321
/// options.dataDir = "/tmp/p"; options.port = 54330
/// ```
public struct LocalProjectOptions: Sendable, Equatable {
  /// The project's folder: keys, pid and log files, and (when Postgres may own it) the cluster.
  public var dataDir: String
  public var port: Int
  /// A folder of `*.sql` files to apply in name order instead of the demo schema.
  public var migrationsDir: String?
  /// Access-token lifetime in seconds.
  public var jwtExpiry: Int
  /// Seconds a just-rotated refresh token still returns the current session (GoTrue's default 10).
  public var refreshReuseInterval: Int
  /// How user tokens are signed: `HS256` with the JWT secret, or `ES256`/`RS256` with a signing
  /// key of the project's (served as JWKS), as hosted projects with signing keys do.
  public var jwtAlgorithm = "HS256"
  /// `NAME=N` changes to the Auth rate limits (`--auth-rate-limit`), applied in order over the
  /// project's remembered ones.
  public var authRateLimitChanges: [String] = []

  public init(
    dataDir: String = LocalProjectOptions.defaultDataDir(), port: Int = 54321,
    migrationsDir: String? = nil, jwtExpiry: Int = 3600, refreshReuseInterval: Int = 10
  ) {
    self.dataDir = dataDir
    self.port = port
    self.migrationsDir = migrationsDir
    self.jwtExpiry = jwtExpiry
    self.refreshReuseInterval = refreshReuseInterval
  }
}
