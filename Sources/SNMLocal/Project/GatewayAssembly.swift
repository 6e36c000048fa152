import Dispatch
import Foundation
import SNMGateway
import SNMLocalFunctions
import SNMLocalREST
import SNMLocalRealtime
import SNMLocalStorage

/// The pieces the gateway process is built from; the one place to plug a service in.
enum GatewayAssembly {
  /// The `/rest/v1` handler: snm's PostgREST (call `reloadSchemaCache` after migrations).
  static func restHandler() -> RESTGateway {
    RESTGateway()
  }

  /// The `/rest/v1` handler, loading its schema cache from `pool` in the background right away
  /// (requests that arrive meanwhile wait for it; if the database does not answer, the first
  /// request loads it), and reloading it on `NOTIFY pgrst, 'reload schema'`, which the DDL event
  /// triggers send. The caller waits only for the listener's `LISTEN` (a round trip; at most 2 s
  /// when the database does not answer), so DDL right after the start is heard.
  ///
  /// `SNM_REST_DEADLINE` (seconds) shortens the deadline after which a request's statements are
  /// cancelled (60 s), for tests.
  static func restHandler(warming pool: PGPool) -> RESTGateway {
    var settings = RESTGateway.Settings()
    if let text = ProcessInfo.processInfo.environment["SNM_REST_DEADLINE"],
      let seconds = Double(text), seconds > 0
    {
      settings.requestDeadline = seconds
    }
    let gateway = RESTGateway(settings: settings)
    DispatchQueue.global().async { gateway.warmUp(database: pool) }
    gateway.listenForReloads(database: pool, ready: .seconds(2))
    return gateway
  }

  /// The `/storage/v1` handler, its files under `root`; leftovers of uploads a crash cut short
  /// are swept: temporary files before it serves, bytes no row names in the background (only
  /// those written before now, so the uploads it already serves keep theirs).
  static func storageHandler(
    pool: PGPool, root: String, signer: JWTSigner, settings: StorageSettings
  ) throws(StorageFailure) -> StorageGateway {
    let gateway = try StorageGateway(pool: pool, root: root, signer: signer, settings: settings)
    _ = gateway.files.sweepTemporary()
    let cutoff = Date().timeIntervalSince1970 - 1
    DispatchQueue.global().async { _ = gateway.sweep(writtenBefore: cutoff) }
    return gateway
  }

  /// The `/realtime/v1` service: the project's keys and JWTs as the REST gateway takes them.
  /// `replication` is a superuser's conninfo, for the changes' replication connection;
  /// `adminPool` the superuser's pool, for private channels' policy probes; `settings` the
  /// `[realtime]` limits of config.toml (``RealtimeLimits/names``).
  ///
  /// `SNM_REALTIME_UNSENT_LIMIT` (bytes) lowers what slow readers may leave unsent together
  /// (256 MiB), `SNM_REALTIME_PRESENCE_LIMIT` (bytes) what presence may hold (64 MiB), for tests.
  static func realtimeService(
    keys: ProjectKeys, pool: PGPool, adminPool: PGPool, replication: String,
    settings: [String: Int] = [:], now: @escaping @Sendable () -> Double
  ) -> RealtimeService {
    let signer = keys.signer
    let policies = RealtimePolicies(pool: adminPool)
    var limits = RealtimeLimits()
    for (name, value) in settings { _ = limits.set(name, value) }
    let environment = ProcessInfo.processInfo.environment
    if let text = environment["SNM_REALTIME_UNSENT_LIMIT"], let bytes = Int(text), bytes > 0 {
      limits.unsentBytes = bytes
    }
    if let text = environment["SNM_REALTIME_PRESENCE_LIMIT"], let bytes = Int(text), bytes > 0 {
      limits.presenceBytes = bytes
    }
    let hub = RealtimeHub(
      presenceLimit: limits.presenceBytes, eventsPerSecond: limits.eventsPerSecond)
    let changes = RealtimeChanges(pool: pool, conninfo: replication) { topic, isPrivate, payload in
      hub.broadcast(
        hubKey: RealtimeChannel.hubKey(topic, isPrivate: isPrivate), topic: topic, payload: payload,
        from: nil)
    }
    // The slot a crashed gateway left holds the WAL behind it: dropped now, not at the first join.
    DispatchQueue.global().async { changes.dropSlot() }
    return RealtimeService(
      apiKeyClaims: { key in keys.claims(forAPIKey: key) },
      verify: { token in Result { () throws(JWTError) in try signer.verify(token, now: now()) } },
      now: now, limits: limits, hub: hub, changes: changes,
      authorize: { topic, claims, presence in
        policies.access(topic: topic, claims: claims, presence: presence)
      })
  }

  /// The `/functions/v1` service: the functions of `supabase/functions` in the project folder
  /// (`ProjectState.projectDir`; for a project without one, the folder it was started from), run by Deno
  /// (`DenoLocator`) with the project's URL, keys and database URL in their environment.
  ///
  /// `SNM_FUNCTIONS_WALL_CLOCK` and `SNM_FUNCTIONS_BOOT_TIMEOUT` (seconds) shorten the limits,
  /// for tests.
  static func functionsService(
    state: ProjectState, keys: ProjectKeys, now: @escaping @Sendable () -> Double
  )
    -> FunctionsService
  {
    let environment = ProcessInfo.processInfo.environment
    // The project folder the project serves, else (a project without one) the folder it was
    // started from.
    let folder = ProjectFolder(root: state.projectDir ?? FileManager.default.currentDirectoryPath)
    let supabase = folder.supabaseDir
    let config = folder.configFile
    let databaseURL =
      "postgresql://postgres@/postgres?host=\(state.layout.socketDir)"
    var settings = FunctionsSettings(
      folder: supabase + "/functions",
      configFile: FileManager.default.fileExists(atPath: config) ? config : nil,
      entries: { try ProjectFolderConfig.functionEntries(folder: folder) },
      runtimeDirectory: state.functionsDir, deno: DenoLocator.locate(),
      projectURL: state.url, databaseURL: databaseURL)
    if let text = environment["SNM_FUNCTIONS_WALL_CLOCK"], let seconds = Double(text), seconds > 0 {
      settings.wallClockSeconds = seconds
    }
    if let text = environment["SNM_FUNCTIONS_BOOT_TIMEOUT"], let seconds = Double(text), seconds > 0
    {
      settings.bootSeconds = seconds
    }
    let jwks = keys.signer.jwks.serialized()
    let functionEnvironment: [String: String] = [
      "SUPABASE_URL": state.url,
      "SUPABASE_ANON_KEY": keys.anonKey,
      "SUPABASE_SERVICE_ROLE_KEY": keys.serviceRoleKey,
      "SUPABASE_DB_URL": databaseURL,
      "SUPABASE_PUBLISHABLE_KEYS": #"{"default":"\#(keys.publishableKey)"}"#,
      "SUPABASE_SECRET_KEYS": #"{"default":"\#(keys.secretKey)"}"#,
      "SUPABASE_JWKS": jwks,
      "DENO_DIR": DenoLocator.cacheDirectory(environment),
      "DENO_NO_UPDATE_CHECK": "1",
      "NO_COLOR": "1",
      "TMPDIR": "/tmp",
    ]
    let runner = FunctionRunner(settings: settings, environment: functionEnvironment)
    let signer = keys.signer
    let tokens = JWTCache()
    return FunctionsService(
      runner: runner, keys: keys,
      verifies: { token in (try? tokens.verify(token, signer: signer, now: now())) != nil })
  }
}
