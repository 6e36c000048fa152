import Foundation
import SNMGateway
import SNMLocalAuth
import SNMWire

#if canImport(Glibc)
  import Glibc
#endif

/// What a project folder remembers between commands (`project.json`), plus its JWT secret.
///
/// ```swift
/// var state = try ProjectState.load(dataDir: dir) ?? ProjectState.create(options)
/// try state.save()
/// ```
/// Throws `LocalProjectError` when the files cannot be read or written.
struct ProjectState: Sendable, Equatable {
  var dataDir: String
  var port: Int
  var jwtExpiry: Int
  var refreshReuseInterval: Int
  var authRateLimits = AuthRateLimits()
  var authSwitches = AuthSwitches()
  /// Real providers' keys for the id_token grant, from the project folder's config.
  var providerKeys: [String: ProviderKeys.Source] = [:]
  /// Fixed SMS codes by phone number, digits only (`--sms-test-otp`; `[auth.sms.test_otp]`).
  var smsTestOTPs: [String: String] = [:]
  var migrationsDir: String?
  var layout: ClusterLayout
  var keysIssuedAt: Int
  /// `HS256`, `ES256` or `RS256` (LocalProjectOptions.jwtAlgorithm).
  var jwtAlgorithm = "HS256"
  /// A JWK set file of the project's own signing keys (`--signing-keys`, the Supabase CLI's
  /// `signing_keys_path`), read at each start; nil: a key made and kept here.
  var signingKeysPath: String?
  /// The project's Storage object size limit in bytes (LocalProjectOptions.storageFileSizeLimit).
  var storageFileSizeLimit: Int64 = 50 * 1024 * 1024
  /// Where object bytes live.
  var storageDir: String { dataDir + "/storage" }
  /// The project folder (holding `supabase/`) this project serves, when it serves one.
  var projectDir: String?
  /// `project_id` of its config.toml.
  var projectID: String?
  /// False: `[db.migrations] enabled = false`, the folder's migrations are not applied.
  var migrationsEnabled = true
  /// `[api] max_rows`, `schemas`, `extra_search_path`: set as PostgREST's in-database settings
  /// of the authenticator role (`pgrst.db_max_rows`, ...) at each start; nil leaves them.
  var maxRows: Int?
  var schemas: [String]?
  var extraSearchPath: [String]?
  /// `[auth] site_url`; nil: the project's URL.
  var siteURL: String?
  /// `[auth] minimum_password_length` (GoTrue's 6).
  var minimumPasswordLength = 6
  /// `[realtime]` limits by Realtime's name (`max_concurrent_users`, ...); the others stay at
  /// Realtime's defaults.
  var realtimeLimits: [String: Int] = [:]

  var stateFile: String { dataDir + "/project.json" }
  var secretFile: String { dataDir + "/jwt-secret" }
  /// The ES256 or RS256 signing key (PEM, 0600), one file per algorithm.
  var signingKeyFile: String { dataDir + "/jwt-signing-key-\(jwtAlgorithm.lowercased()).pem" }
  var pidFile: String { dataDir + "/gateway.pid" }
  var logFile: String { dataDir + "/gateway.log" }
  /// The Edge Functions runner's folder: its bootstrap and `functions.log`.
  var functionsDir: String { dataDir + "/functions" }
  var lockFile: String { dataDir + "/.lock" }
  var url: String { "http://127.0.0.1:\(port)" }

  /// Reads `project.json` in `dataDir`; `nil` when the project was never started there.
  static func load(dataDir: String) throws(LocalProjectError) -> ProjectState? {
    try verifyPrivate(dataDir: dataDir)
    let path = dataDir + "/project.json"
    guard let data = FileManager.default.contents(atPath: path) else { return nil }
    guard let json = try? JSONValue(parsing: Array(data)), let port = json["port"]?.intValue,
      let clusterDir = json["cluster_dir"]?.stringValue,
      let issuedAt = json["keys_issued_at"]?.intValue
    else {
      throw LocalProjectError(.failed, "\(path) is damaged; remove it or run snm local reset")
    }
    var limits = AuthRateLimits()
    for name in AuthRateLimits.names {
      if let value = json["auth_rate_limits"]?[name]?.intValue {
        try? limits.set("\(name)=\(value)")
      }
    }
    var switches = AuthSwitches()
    for name in AuthSwitches.names {
      if let value = json["auth"]?[name]?.boolValue { switches[name] = value }
    }
    var testOTPs: [String: String] = [:]
    for member in json["sms_test_otp"]?.objectValue ?? JSONObject() {
      if let code = member.value.stringValue { testOTPs[member.key] = code }
    }
    var state = ProjectState(
      dataDir: dataDir, port: port, jwtExpiry: json["jwt_expiry"]?.intValue ?? 3600,
      refreshReuseInterval: json["refresh_reuse_interval"]?.intValue ?? 10,
      authRateLimits: limits, authSwitches: switches, smsTestOTPs: testOTPs,
      migrationsDir: json["migrations"]?.stringValue,
      layout: ClusterLayout(
        baseDir: clusterDir, owner: json["cluster_owner"]?.stringValue,
        privateSocketDir: json["socket_dir"]?.stringValue),
      keysIssuedAt: issuedAt, jwtAlgorithm: json["jwt_alg"]?.stringValue ?? "HS256",
      signingKeysPath: json["signing_keys_path"]?.stringValue,
      storageFileSizeLimit: Int64(
        json["storage_file_size_limit"]?.intValue ?? 50 * 1024 * 1024))
    state.projectDir = json["project_dir"]?.stringValue
    state.projectID = json["project_id"]?.stringValue
    state.migrationsEnabled = json["migrations_enabled"]?.boolValue ?? true
    state.maxRows = json["max_rows"]?.intValue
    state.schemas = json["schemas"]?.arrayValue?.compactMap(\.stringValue)
    state.extraSearchPath = json["extra_search_path"]?.arrayValue?.compactMap(\.stringValue)
    state.siteURL = json["site_url"]?.stringValue
    state.minimumPasswordLength = json["minimum_password_length"]?.intValue ?? 6
    for member in json["realtime_limits"]?.objectValue ?? JSONObject() {
      if let value = member.value.intValue { state.realtimeLimits[member.key] = value }
    }
    for member in json["id_token_keys"]?.objectValue ?? JSONObject() {
      guard let jwks = member.value["jwks"]?.stringValue else { continue }
      let clientIDs = member.value["client_id"]?.arrayValue?.compactMap(\.stringValue) ?? []
      state.providerKeys[member.key] = ProviderKeys.Source(jwks: jwks, clientIDs: clientIDs)
    }
    return state
  }

  /// A fresh state for `options`, choosing where the cluster lives.
  static func create(_ options: LocalProjectOptions) -> ProjectState {
    var state = ProjectState(
      dataDir: options.dataDir, port: options.port, jwtExpiry: options.jwtExpiry,
      refreshReuseInterval: options.refreshReuseInterval, migrationsDir: options.migrationsDir,
      layout: ClusterLayout.choose(projectDir: options.dataDir),
      keysIssuedAt: Int(Date().timeIntervalSince1970), jwtAlgorithm: options.jwtAlgorithm,
      storageFileSizeLimit: options.storageFileSizeLimit)
    state.apply(rateLimitChanges: options.authRateLimitChanges)
    state.authSwitches.apply(options.authSwitches)
    state.apply(testOTPChanges: options.smsTestOTPChanges)
    return state
  }

  /// Applies `--sms-test-otp PHONE=CODE` (checked when the command line was read) and
  /// `--no-sms-test-otp` (an empty change: forget them all), in order.
  mutating func apply(testOTPChanges: [String]) {
    for change in testOTPChanges {
      guard let (phone, code) = LocalProjectOptions.testOTP(change) else {
        smsTestOTPs = [:]
        continue
      }
      smsTestOTPs[phone] = code
    }
  }

  /// Applies `NAME=N` changes (already checked when the command line was read).
  mutating func apply(rateLimitChanges: [String]) {
    for change in rateLimitChanges { try? authRateLimits.set(change) }
  }

  /// The arguments of `snm local serve` for this state: the one list both the launch and the
  /// supervisor's restart of a crashed gateway use.
  var serveArguments: [String] {
    ["local", "serve", "--dir", dataDir, "--port", String(port)]
      + ["--jwt-expiry", String(jwtExpiry), "--jwt-alg", jwtAlgorithm]
      + ["--refresh-reuse-interval", String(refreshReuseInterval)]
      + rateLimitArguments + authSwitchArguments
      + ["--file-size-limit", String(storageFileSizeLimit)]
  }

  /// The `--auth-rate-limit` flags that give a gateway this state's limits.
  var rateLimitArguments: [String] {
    AuthRateLimits.names.flatMap { name in
      ["--auth-rate-limit", "\(name)=\(authRateLimits[name] ?? 0)"]
    }
  }

  /// The flags that give a gateway this state's Auth switches (`--confirm-email` or
  /// `--no-confirm-email`, ...).
  var authSwitchArguments: [String] {
    AuthSwitches.names.map { name in
      let on = authSwitches[name]
      return AuthSwitches.flag(name, on: on)
    }
  }

  func save() throws(LocalProjectError) {
    let json = JSONValue.object([
      .init("port", .int(port)), .init("jwt_expiry", .int(jwtExpiry)),
      .init("refresh_reuse_interval", .int(refreshReuseInterval)),
      .init(
        "auth_rate_limits",
        .object(AuthRateLimits.names.map { .init($0, .int(authRateLimits[$0] ?? 0)) })),
      .init("auth", .object(AuthSwitches.names.map { .init($0, .bool(authSwitches[$0])) })),
      .init(
        "sms_test_otp",
        .object(smsTestOTPs.sorted { $0.key < $1.key }.map { .init($0.key, .string($0.value)) })),
      .init("migrations", .optional(migrationsDir)), .init("cluster_dir", .string(layout.baseDir)),
      .init("cluster_owner", .optional(layout.owner)),
      .init("socket_dir", .optional(layout.privateSocketDir)),
      .init("keys_issued_at", .int(keysIssuedAt)),
      .init("jwt_alg", .string(jwtAlgorithm)),
      .init("signing_keys_path", .optional(signingKeysPath)),
      .init("storage_file_size_limit", .int(Int(storageFileSizeLimit))),
      .init("project_dir", .optional(projectDir)), .init("project_id", .optional(projectID)),
      .init("migrations_enabled", .bool(migrationsEnabled)),
      .init("max_rows", maxRows.map { .int($0) } ?? .null),
      .init("schemas", schemas.map { .array($0.map { .string($0) }) } ?? .null),
      .init(
        "extra_search_path", extraSearchPath.map { .array($0.map { .string($0) }) } ?? .null),
      .init("site_url", .optional(siteURL)),
      .init("minimum_password_length", .int(minimumPasswordLength)),
      .init(
        "realtime_limits",
        .object(realtimeLimits.sorted { $0.key < $1.key }.map { .init($0.key, .int($0.value)) })),
      .init(
        "id_token_keys",
        .object(
          providerKeys.sorted { $0.key < $1.key }.map { provider, source in
            .init(
              provider,
              .object([
                .init("jwks", .string(source.jwks)),
                .init("client_id", .array(source.clientIDs.map { .string($0) })),
              ]))
          })),
    ])
    do {
      // Atomic: `snm local status` in another process may read it while `start` writes it.
      try Data((json.serialized() + "\n").utf8).write(
        to: URL(fileURLWithPath: stateFile), options: .atomic)
    } catch {
      throw LocalProjectError(.failed, "cannot write \(stateFile): \(error)")
    }
  }

  /// The JWT secret, created on first use (random, file mode 0600).
  func secret() throws(LocalProjectError) -> [UInt8] {
    try Self.createOnce(secretFile, valid: { $0.count >= 32 }) { () throws(LocalProjectError) in
      do {
        return Array(Crypto.hex(try Crypto.randomBytes(32)).utf8)
      } catch {
        throw LocalProjectError(.failed, "cannot generate a JWT secret: \(error)")
      }
    }
  }

  /// The project's ES256 or RS256 signing key: the one its signing keys file names, else made on
  /// first use; nil for HS256.
  func signingKey() throws(LocalProjectError) -> SigningKey? {
    if let path = signingKeysPath {
      guard let data = FileManager.default.contents(atPath: path) else {
        throw LocalProjectError(.failed, "cannot read the signing keys \(path)")
      }
      do {
        return try SigningKey(jwkSet: Array(data))
      } catch {
        throw LocalProjectError(.failed, "\(path): \(error)")
      }
    }
    guard let algorithm = SigningKey.Algorithm(rawValue: jwtAlgorithm) else { return nil }
    var made: SigningKey?
    let pem = try Self.createOnce(signingKeyFile, valid: { !$0.isEmpty }) {
      () throws(LocalProjectError) in
      do {
        let (key, pem) = try SigningKey.generate(algorithm)
        made = key
        return pem
      } catch {
        throw LocalProjectError(.failed, "cannot make a \(jwtAlgorithm) signing key: \(error)")
      }
    }
    if let made, made.algorithm == algorithm { return made }
    do {
      return try SigningKey(pem: pem + [UInt8(ascii: "\n")])
    } catch {
      throw LocalProjectError(
        .failed, "\(signingKeyFile) is damaged (\(error)); remove it to make a new key")
    }
  }

  /// The contents of `path`, which `make` writes on first use (mode 0600).
  ///
  /// Two processes may ask at once (`snm local serve` starting, `snm local status` polling), and so
  /// may two requests in one: the contents are written whole to a file of the caller's own (named
  /// by pid and random bytes, created exclusively, so no caller unlinks another's) and linked into
  /// place, so a reader never sees half of it and the first link wins; the others read the
  /// winner's. A file `valid` refuses (damaged) is replaced.
  static func createOnce(
    _ path: String, valid: ([UInt8]) -> Bool,
    make: () throws(LocalProjectError) -> [UInt8]
  ) throws(LocalProjectError) -> [UInt8] {
    if let existing = readFile(path, valid: valid) { return existing }
    let contents = try make()
    let temporary = try PrivateTemporaryFile.write(contents, beside: path)
    defer { unlink(temporary) }
    if link(temporary, path) == 0 { return contents }
    if errno == EEXIST, let winner = readFile(path, valid: valid) { return winner }
    // A damaged file: replaced.
    guard rename(temporary, path) == 0 else { throw PrivateTemporaryFile.cannotWrite(path, errno) }
    return contents
  }

  /// The contents of `path` (surrounding whitespace trimmed), or nil when there is no file or
  /// `valid` refuses it.
  private static func readFile(_ path: String, valid: ([UInt8]) -> Bool) -> [UInt8]? {
    guard let data = FileManager.default.contents(atPath: path) else { return nil }
    let text = Array(
      String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines).utf8)
    return valid(text) ? text : nil
  }

  func keys() throws(LocalProjectError) -> ProjectKeys {
    do {
      return try ProjectKeys(
        secret: try secret(), issuedAt: keysIssuedAt, signingKey: try signingKey())
    } catch let error as LocalProjectError {
      throw error
    } catch {
      throw LocalProjectError(.failed, "cannot sign the API keys: \(error)")
    }
  }
}

extension ProjectState {
  /// Refuses a data dir another account may write in (not this user's, or writable by its group
  /// or others): it holds the JWT secret, the keys and the gateway's pid file, and whoever can
  /// rename files in it can swap the secret (and mint service_role tokens) or the pid `stop`
  /// signals. A missing one is no problem (`start` makes it 0700).
  static func verifyPrivate(dataDir: String) throws(LocalProjectError) {
    guard
      let problem = PrivateFolder.problem(dataDir, owner: SocketDirectory.accountName)
        ?? PrivateFolder.swappable(dataDir, owner: SocketDirectory.accountName)
    else { return }
    throw LocalProjectError(
      .failed,
      "refusing the data dir \(dataDir): \(problem); it holds the project's JWT secret and keys, "
        + "so it must be yours and closed to others (chmod go-w, or another --dir)")
  }

}
