import Dispatch
import Foundation

#if canImport(Glibc)
  import Glibc
#endif

extension LocalProjectController {
  /// Runs the gateway in the foreground until SIGTERM or SIGINT (`snm local serve`).
  ///
  /// Starts Postgres first if it is not running, and then also stops it on exit. Throws
  /// `LocalProjectError` when Postgres or the port cannot be had; otherwise never returns.
  func serve() throws(LocalProjectError) -> Never {
    try makeDataDir()
    // `start` holds the lock while it waits for this process: then its saved state is current.
    let state = try resolvedState()
    if let lock = ProjectLock.attempt(path: options.dataDir + "/.lock") {
      defer { lock.release() }
      try state.save()
    }
    let cluster = Cluster(layout: state.layout)
    let startedPostgres = !cluster.isRunning
    try prepareDatabase(state)
    let keys = try state.keys()
    let clock: @Sendable () -> Double = { Date().timeIntervalSince1970 }
    let adminPool = PGPool(conninfo: state.layout.conninfo(user: "postgres"), size: 8)
    let restPool = PGPool(conninfo: state.layout.conninfo(user: "authenticator"), size: 20)
    let auth = AuthGateway(
      pool: adminPool, signer: keys.signer,
      settings: AuthSettings(
        issuer: state.url + "/auth/v1", jwtExpiry: state.jwtExpiry,
        refreshReuseInterval: state.refreshReuseInterval),
      now: clock)
    let router = Router(
      keys: keys, signer: keys.signer, rest: GatewayAssembly.restHandler(), restPool: restPool,
      auth: auth, now: clock)
    var limits = HTTPServerLimits()
    if let text = ProcessInfo.processInfo.environment["SNM_HTTP_REQUEST_TIMEOUT"],
      let seconds = Double(text), seconds > 0
    {
      limits.requestTimeout = seconds
    }
    let server = HTTPServer(port: state.port, limits: limits, handler: router.handle)
    do {
      try server.start()
    } catch {
      if startedPostgres { try? cluster.stop() }
      throw LocalProjectError(.unavailable, "cannot serve: \(error)")
    }
    let pidText = "\(getpid())\n"
    if FileManager.default.contents(atPath: state.pidFile) != Data(pidText.utf8) {
      // Atomic: `start` may be reading the file (it wrote the same pid already when it spawned us).
      try? Data(pidText.utf8).write(to: URL(fileURLWithPath: state.pidFile), options: .atomic)
    }
    printLine("snm local: serving \(state.url) (REST /rest/v1, Auth /auth/v1), pid \(getpid())")
    let pidFile = state.pidFile
    let shutdown: @Sendable () -> Void = {
      server.stop()
      adminPool.drain()
      restPool.drain()
      if let data = FileManager.default.contents(atPath: pidFile),
        String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
          == String(getpid())
      {
        try? FileManager.default.removeItem(atPath: pidFile)
      }
      if startedPostgres { try? cluster.stop() }
      printLine("snm local: stopped")
      exit(0)
    }
    let sources = Self.onTermination(shutdown)
    withExtendedLifetime(sources) { dispatchMain() }
  }

  /// Calls `handler` once on SIGTERM or SIGINT (the default actions are disabled).
  static func onTermination(
    _ handler: @escaping @Sendable () -> Void
  ) -> [any DispatchSourceSignal] {
    var sources: [any DispatchSourceSignal] = []
    let queue = DispatchQueue(label: "snm.local.signals")
    for number in [SIGTERM, SIGINT] {
      signal(number, SIG_IGN)
      let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
      source.setEventHandler(handler: handler)
      source.resume()
      sources.append(source)
    }
    return sources
  }
}
