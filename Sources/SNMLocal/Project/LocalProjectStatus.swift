import SNMWire

/// What `snm local status` reports (and `--json` prints).
public struct LocalProjectStatus: Sendable, Equatable {
  /// `http://127.0.0.1:<port>`: REST at `/rest/v1`, Auth at `/auth/v1`.
  public var url: String
  public var anonKey: String
  public var serviceRoleKey: String
  /// `sb_publishable_...`: the new-format key for role anon.
  public var publishableKey: String
  /// `sb_secret_...`: the new-format key for role service_role.
  public var secretKey: String
  public var dataDir: String
  /// Where the Postgres cluster lives (the data dir's `postgres/` or a folder Postgres owns).
  public var clusterDir: String
  /// libpq URI of the database as its superuser over the unix socket
  /// (`postgresql://postgres@/postgres?host=/var/lib/snm/clusters/…/run&port=5432`): for psql.
  public var databaseURL: String
  /// Both Postgres and the gateway answer.
  public var running: Bool
  public var gatewayRunning: Bool
  public var postgresRunning: Bool
  public var gatewayPID: Int?
  public var port: Int
  /// `PostgreSQL 15.18`, when known.
  public var postgresVersion: String?
  public var logFile: String
  public var jwtExpiry: Int
  /// `HS256`, `ES256` or `RS256`: how user tokens are signed.
  public var jwtAlgorithm = "HS256"
  /// The project folder (holding `supabase/`) it serves, if any.
  public var projectDir: String?
  /// That folder's `supabase/config.toml`, when it has one.
  public var configFile: String?

  /// The status as one JSON object, keys in snake_case.
  public var json: JSONValue {
    .object([
      .init("url", .string(url)), .init("rest_url", .string(url + "/rest/v1")),
      .init("auth_url", .string(url + "/auth/v1")), .init("anon_key", .string(anonKey)),
      .init("service_role_key", .string(serviceRoleKey)),
      .init("publishable_key", .string(publishableKey)), .init("secret_key", .string(secretKey)),
      .init("data_dir", .string(dataDir)),
      .init("cluster_dir", .string(clusterDir)), .init("db_url", .string(databaseURL)),
      .init("running", .bool(running)),
      .init("gateway_running", .bool(gatewayRunning)),
      .init("postgres_running", .bool(postgresRunning)),
      .init("gateway_pid", gatewayPID.map { .int($0) } ?? .null), .init("port", .int(port)),
      .init("postgres_version", .optional(postgresVersion)), .init("log_file", .string(logFile)),
      .init("jwt_expiry", .int(jwtExpiry)), .init("jwt_alg", .string(jwtAlgorithm)),
      .init("jwks_url", .string(url + "/auth/v1/.well-known/jwks.json")),
      .init("project_dir", .optional(projectDir)), .init("config_file", .optional(configFile)),
    ])
  }
}
