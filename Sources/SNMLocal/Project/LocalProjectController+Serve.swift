import Dispatch
import Foundation
import SNMGateway
import SNMLocalAuth
import SNMLocalStorage

#if canImport(Glibc)
  import Glibc
#endif

extension LocalProjectController {
  /// Runs the gateway in the foreground until SIGTERM or SIGINT (`snm local serve`).
  ///
  /// This process supervises: it listens on the port, starts Postgres if it is not running (and
  /// then also stops it on exit), runs the HTTP gateway as a child (`SNM_GATEWAY_WORKER=1`,
  /// serving on the supervisor's listening socket: `SNM_GATEWAY_LISTENER`), and starts a new
  /// child if one crashes (five crashes within 10 s end it). Throws `LocalProjectError` when the
  /// port is taken or Postgres cannot be had; otherwise never returns.
  func serve() throws(LocalProjectError) -> Never {
    if ProcessInfo.processInfo.environment[Self.workerVariable] == "1" { try serveWorker() }
    try supervise()
  }

  static let workerVariable = "SNM_GATEWAY_WORKER"
  /// Names the listening socket (a descriptor number) the supervisor gives its worker.
  static let listenerVariable = "SNM_GATEWAY_LISTENER"

  /// The gateway itself: serves on the supervisor's listening socket (or, run alone, binds the
  /// port) until SIGTERM/SIGINT, never touches Postgres's lifecycle. Exits 3 when the port is
  /// taken or the socket named is not one listening on it.
  func serveWorker() throws(LocalProjectError) -> Never {
    let state = try resolvedState()
    let listener = try inheritedListener(port: state.port)
    // Checked again here: the gateway sends passwords through this socket.
    try SocketDirectory.verify(state.layout.socketDir, owner: .of(state.layout))
    let keys = try state.keys()
    let clock: @Sendable () -> Double = { Date().timeIntervalSince1970 }
    // A backend past 64 MiB of its own memory is closed when its connection comes back
    // (`SNM_PG_RECYCLE_MIB` changes it, 0 never: for tests).
    var recycleAbove: Int? = 64 << 20
    if let text = ProcessInfo.processInfo.environment["SNM_PG_RECYCLE_MIB"], let mib = Int(text) {
      recycleAbove = mib > 0 ? mib << 20 : nil
    }
    let adminPool = PGPool(
      conninfo: state.layout.conninfo(user: "postgres"), size: 8, recycleAbove: recycleAbove)
    let restPool = PGPool(
      conninfo: state.layout.conninfo(user: "authenticator"), size: 20, recycleAbove: recycleAbove)
    var authSettings = AuthSettings(
      issuer: state.url + "/auth/v1", jwtExpiry: state.jwtExpiry,
      refreshReuseInterval: state.refreshReuseInterval,
      minimumPasswordLength: state.minimumPasswordLength, rateLimits: state.authRateLimits)
    if let siteURL = state.siteURL { authSettings.siteURL = siteURL }
    state.authSwitches.configure(&authSettings)
    authSettings.smsTestOTPs = state.smsTestOTPs
    var auth = AuthGateway(pool: adminPool, signer: keys.signer, settings: authSettings, now: clock)
    auth.testIssuer = try state.testIssuer()
    auth.providerKeys = state.providerKeys.mapValues { ProviderKeys($0) }
    var router = Router(
      keys: keys, signer: keys.signer, rest: GatewayAssembly.restHandler(warming: restPool),
      restPool: restPool,
      auth: auth, now: clock)
    var storageSettings = StorageSettings()
    storageSettings.fileSizeLimit = state.storageFileSizeLimit
    do {
      router.storage = try GatewayAssembly.storageHandler(
        pool: restPool, root: state.storageDir, signer: keys.signer, settings: storageSettings)
    } catch {
      throw LocalProjectError(.failed, "cannot keep Storage's files: \(error.message)")
    }
    let realtime = GatewayAssembly.realtimeService(
      keys: keys, pool: restPool, adminPool: adminPool,
      replication: state.layout.conninfo(user: "postgres"), settings: state.realtimeLimits,
      now: clock)
    router.realtime = realtime
    let functions = GatewayAssembly.functionsService(state: state, keys: keys, now: clock)
    router.functions = functions
    var limits = HTTPServerLimits()
    // An upload streams to disk, held to its bucket's and the project's limit by Storage itself
    // (refused by its head, with Storage's error, when it says it is larger).
    limits.streamedBodyBytes = 1 << 50
    let environment = ProcessInfo.processInfo.environment
    if let text = environment["SNM_HTTP_REQUEST_TIMEOUT"], let seconds = Double(text), seconds > 0 {
      limits.requestTimeout = seconds
    }
    if let text = environment["SNM_HTTP_WORKER_IDLE"], let seconds = Double(text), seconds > 0 {
      limits.workerIdleTimeout = seconds
    }
    // Tests fill the connection table with a few dozen connections.
    if let text = environment["SNM_HTTP_MAX_CONNECTIONS"], let count = Int(text), count > 0 {
      limits.maxConnections = count
    }
    let server =
      if let listener {
        HTTPServer(
          listening: listener, limits: limits, handler: router.handle,
          bodyPlanner: router.bodyPlan)
      } else {
        HTTPServer(
          port: state.port, limits: limits, handler: router.handle, bodyPlanner: router.bodyPlan)
      }
    do {
      try server.start()
    } catch {
      throw LocalProjectError(.unavailable, "cannot serve: \(error)")
    }
    printLine(
      "snm local: serving \(state.url) (REST /rest/v1, Auth /auth/v1, Storage /storage/v1,"
        + " Realtime /realtime/v1, Functions /functions/v1), pid \(getpid())"
    )
    let shutdown: @Sendable () -> Void = {
      realtime.stop()
      server.stop()
      // The slot is dropped once the HTTP server is closed: a client reconnecting meanwhile
      // finds no server rather than a socket that nothing reads.
      realtime.release()
      functions.runner.stopAll()
      adminPool.drain()
      restPool.drain()
      exit(0)
    }
    onTermination?(shutdown)
    // The server's threads serve and the signal thread stops them; this one only waits. (Not
    // `dispatchMain()`: snm's main runs as a task, which must not hand its thread to Dispatch.)
    while true { pause() }
  }

  /// The listening socket `SNM_GATEWAY_LISTENER` names, closed on exec from here on (no Edge
  /// Function's process may keep the port); nil when the variable is not set (the worker run
  /// alone, as scripts/bench does). Throws (exit 3) when it names no socket listening on
  /// 127.0.0.1:`port`.
  func inheritedListener(port: Int) throws(LocalProjectError) -> Int32? {
    guard let text = ProcessInfo.processInfo.environment[Self.listenerVariable] else { return nil }
    unsetenv(Self.listenerVariable)
    guard let descriptor = Int32(text), descriptor > 2,
      HTTPServer.listeningPort(of: descriptor) == port
    else {
      throw LocalProjectError(
        .unavailable,
        "cannot serve: \(Self.listenerVariable) names no socket listening on 127.0.0.1:\(port)")
    }
    _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
    return descriptor
  }
}
