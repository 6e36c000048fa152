import Foundation
import SNMGateway

#if canImport(Glibc)
  import Glibc
#endif

/// Runs the lifecycle of one project folder: start, stop, status, reset (serve is in
/// `LocalProjectController+Serve.swift`).
///
/// ```swift
/// let status = try LocalProjectController(options: options).start()
/// ```
/// Every method throws `LocalProjectError`.
struct LocalProjectController {
  var options: LocalProjectOptions
  /// Which of `options` the user gave explicitly (they override what the folder remembers).
  var given: Set<String> = []
  /// Registers what SIGTERM and SIGINT do while serving (snm's signal mechanism); nil: none.
  var onTermination: LocalCommand.TerminationHook? = nil
  /// The project folder's config.toml, read once by `start`, `restart` and `reset`; nil for a
  /// project without a folder (and for `serve`, which runs what `start` saved).
  var folder: ProjectFolderConfig? = nil
  /// Told each step of a start as it begins (`starting Postgres (about 1 s)`),
  /// so the first start, which takes some seconds, is seen moving; nil says nothing.
  var progress: ((String) -> Void)? = nil

  /// Starts Postgres and the gateway unless they run; returns the status afterwards.
  func start() throws(LocalProjectError) -> LocalProjectStatus {
    try start(reportAlreadyRunning: nil)
  }

  func start(reportAlreadyRunning: ((LocalProjectStatus) -> Void)?) throws(LocalProjectError)
    -> LocalProjectStatus
  {
    try makeDataDir()
    let lock = try ProjectLock(path: options.dataDir + "/.lock")
    defer { lock.release() }
    let saved = try ProjectState.load(dataDir: options.dataDir)
    let isNew = saved == nil
    var state = try resolvedState()
    if isNew { try discardOrphanedCluster(state) }
    let gatewayAlive = gatewayPID(state).map(Subprocess.isAlive) ?? false
    if gatewayAlive {
      let current = try status(state)
      if current.running {
        try refuseChangedSettings(state)
        reportAlreadyRunning?(current)
        return current
      }
    }
    try state.save()
    _ = try state.keys()
    // A start that fails stops the Postgres it started: none is left running behind a project
    // that `status` calls stopped (the gateway's port taken by another user's project, say).
    let postgresRan = Cluster(layout: state.layout).isRunning
    do throws(LocalProjectError) {
      state = try prepareDatabase(state, previous: saved)
      ProjectRegistry.standard().record(state)
      if !gatewayAlive {
        progress?("starting the gateway on \(state.url) (about 1 s)")
        try launchGateway(state)
      }
    } catch {
      if !postgresRan { try? Cluster(layout: state.layout).stop() }
      throw error
    }
    state = try resolvedState()
    return try status(state)
  }

  /// A running project keeps the settings it started with: flags that would change them are
  /// refused (exit 2), not left silently unapplied.
  func refuseChangedSettings(_ state: ProjectState) throws(LocalProjectError) {
    guard let saved = try ProjectState.load(dataDir: options.dataDir) else { return }
    let changed = state.changedSettings(from: saved)
    guard !changed.isEmpty else { return }
    throw LocalProjectError(
      .usage,
      "the project in \(options.dataDir) is running with other settings than the ones given ("
        + changed.joined(separator: ", ")
        + "): snm local restart applies them, or stop it first (snm local stop --dir "
        + "\(options.dataDir))")
  }

  /// Stops the project if it runs, then starts it with the flags given now.
  func restart() throws(LocalProjectError) -> LocalProjectStatus {
    _ = try stop()
    return try start()
  }

  /// A new project (no project.json) whose cluster lives outside its folder (as root: under
  /// /var/lib/snm/clusters/<hash of the folder>) must not adopt the one an earlier project at the
  /// same path left there (its folder deleted): it would come up with that project's rows and
  /// users instead of a fresh seed. That cluster is stopped and removed.
  func discardOrphanedCluster(_ state: ProjectState) throws(LocalProjectError) {
    guard !state.layout.baseDir.hasPrefix(options.dataDir + "/"),
      FileManager.default.fileExists(atPath: state.layout.baseDir)
    else { return }
    try Cluster(layout: state.layout).destroy()
    printError("snm local: removed the cluster an earlier project left in \(state.layout.baseDir)")
  }

  /// Stops the gateway and Postgres. Returns false when nothing was running.
  func stop() throws(LocalProjectError) -> Bool {
    guard let state = try ProjectState.load(dataDir: options.dataDir) else { return false }
    let lock = try ProjectLock(path: state.lockFile)
    defer { lock.release() }
    let gatewayStopped = stopGateway(state)
    if FileManager.default.fileExists(atPath: state.layout.baseDir) {
      ProjectRegistry.standard().record(state)
    }
    let cluster = Cluster(layout: state.layout)
    let postgresRan = cluster.isRunning
    try cluster.stop()
    return gatewayStopped || postgresRan
  }

  /// Deletes the cluster, creates it again, applies migrations, and starts the project.
  func reset() throws(LocalProjectError) -> LocalProjectStatus {
    try makeDataDir()
    do {
      let lock = try ProjectLock(path: options.dataDir + "/.lock")
      defer { lock.release() }
      if let state = try ProjectState.load(dataDir: options.dataDir) {
        _ = stopGateway(state)
        try Cluster(layout: state.layout).destroy()
      }
    }
    return try start()
  }

  /// The project's status; `running` false when nothing was ever started in the folder.
  func currentStatus() throws(LocalProjectError) -> LocalProjectStatus? {
    guard let state = try ProjectState.load(dataDir: options.dataDir) else { return nil }
    return try status(state)
  }

  func status(_ state: ProjectState) throws(LocalProjectError) -> LocalProjectStatus {
    let keys = try state.keys()
    let cluster = Cluster(layout: state.layout)
    let pid = gatewayPID(state).flatMap { Subprocess.isAlive($0) ? $0 : nil }
    let postgresRunning = cluster.isRunning
    return LocalProjectStatus(
      url: state.url, anonKey: keys.anonKey, serviceRoleKey: keys.serviceRoleKey,
      publishableKey: keys.publishableKey, secretKey: keys.secretKey,
      dataDir: state.dataDir, clusterDir: state.layout.baseDir,
      databaseURL: "postgresql://postgres@/postgres?host=\(state.layout.socketDir)"
        + "&port=\(state.layout.port)",
      running: pid != nil && postgresRunning, gatewayRunning: pid != nil,
      postgresRunning: postgresRunning, gatewayPID: pid.map(Int.init), port: state.port,
      postgresVersion: cluster.majorVersion.map { "PostgreSQL \($0)" }, logFile: state.logFile,
      jwtExpiry: state.jwtExpiry, jwtAlgorithm: state.jwtAlgorithm,
      projectDir: state.projectDir,
      configFile: state.projectDir.flatMap { root in
        let file = ProjectFolder(root: root).configFile
        return ProjectFolder.isFile(file) ? file : nil
      })
  }

  /// The remembered state (or a new one), with the project folder's config.toml over it and the
  /// flags given now over both.
  ///
  /// - Throws: `LocalProjectError` (usage) when the data dir serves another project folder (or
  ///   none): a conflict is never settled silently. (`--migrations` with a folder overrides its
  ///   `supabase/migrations`, and `start` says so.)
  func resolvedState() throws(LocalProjectError) -> ProjectState {
    let saved = try ProjectState.load(dataDir: options.dataDir)
    var state = saved ?? ProjectState.create(options)
    if let saved, let folder {
      try refuseOtherFolder(saved: saved, folder: folder.folder)
    }
    if let folder {
      folder.apply(to: &state)
      if folder.signingKeysPath != nil, options.signingKeysFile == nil,
        let key = try state.signingKey()
      {
        state.jwtAlgorithm = key.algorithm.rawValue
      }
    }
    if given.contains("port") { state.port = options.port }
    if given.contains("jwt-expiry") { state.jwtExpiry = options.jwtExpiry }
    if given.contains("jwt-alg") { state.jwtAlgorithm = options.jwtAlgorithm }
    try applySigningKeys(&state)
    if given.contains("file-size-limit") {
      state.storageFileSizeLimit = options.storageFileSizeLimit
    }
    if given.contains("refresh-reuse-interval") {
      state.refreshReuseInterval = options.refreshReuseInterval
    }
    if given.contains("auth-rate-limit") {
      state.apply(rateLimitChanges: options.authRateLimitChanges)
    }
    state.authSwitches.apply(options.authSwitches)
    state.apply(testOTPChanges: options.smsTestOTPChanges)
    if given.contains("migrations") { state.migrationsDir = options.migrationsDir }
    if saved != nil,
      !FileManager.default.fileExists(atPath: state.layout.baseDir + "/data/PG_VERSION")
    {
      state.layout = ClusterLayout.choose(projectDir: options.dataDir)
    }
    return state
  }

  /// A data dir serves one project folder, or none, for its life: another is refused.
  func refuseOtherFolder(saved: ProjectState, folder: ProjectFolder) throws(LocalProjectError) {
    guard saved.projectDir != folder.root else { return }
    let serving =
      saved.projectDir.map { "the project folder \($0)" } ?? "a project without a project folder"
    throw LocalProjectError(
      .usage,
      "\(options.dataDir) holds \(serving), not \(folder.root): start this folder with "
        + "another --dir (or none), or remove that project (snm local destroy --dir "
        + "\(options.dataDir))")
  }

  /// `--signing-keys FILE` (its key's algorithm becomes the project's) or `--no-signing-keys`.
  func applySigningKeys(_ state: inout ProjectState) throws(LocalProjectError) {
    guard let file = options.signingKeysFile else { return }
    state.signingKeysPath = file.isEmpty ? nil : file
    if let key = try state.signingKey() { state.jwtAlgorithm = key.algorithm.rawValue }
  }

  func makeDataDir() throws(LocalProjectError) {
    if let problem = Self.makeFolders(options.dataDir) {
      throw LocalProjectError(.failed, "cannot create the data dir \(options.dataDir): \(problem)")
    }
    try ProjectState.verifyPrivate(dataDir: options.dataDir)
  }

  /// Makes the folder `path` and those it is in that are missing (mode 0700); nil when it is
  /// there, else why not, naming the part of the path at fault: Foundation's error said
  /// `Error Domain=NSCocoaErrorDomain Code=512 "(null)"UserInfo={...}` for an `XDG_DATA_HOME`
  /// that is a file.
  static func makeFolders(_ path: String) -> String? {
    var made = path.hasPrefix("/") ? "" : "."
    for part in path.split(separator: "/") {
      made += "/" + part
      if mkdir(made, 0o700) == 0 { continue }
      let code = errno
      var info = stat()
      if code == EEXIST && stat(made, &info) == 0 {
        if info.st_mode & S_IFMT == S_IFDIR { continue }
        return "\(made) is a file, not a folder"
      }
      return "\(made): \(String(cString: strerror(code)))"
    }
    return nil
  }

  /// Creates and starts the cluster if needed and applies pending migrations, then what the
  /// project folder asks for (its API settings, buckets, and on a new database its seed); returns
  /// the state with the socket folder chosen (saved when it changed).
  func prepareDatabase(_ state: ProjectState, previous: ProjectState? = nil)
    throws(LocalProjectError) -> ProjectState
  {
    var state = state
    if !Cluster(layout: state.layout).isInitialized {
      progress?("making the project's database cluster (initdb, a few seconds, once)")
    }
    try Cluster(layout: state.layout).initializeIfNeeded()
    let readied = try Cluster(layout: state.layout).readySocketDir()
    if readied != state.layout {
      state.layout = readied
      try state.save()
    }
    let cluster = Cluster(layout: state.layout)
    if !cluster.isRunning { progress?("starting Postgres (about 1 s)") }
    try cluster.start()
    let connection: PGConnection
    do {
      connection = try PGConnection(conninfo: state.layout.conninfo(user: "postgres"))
    } catch {
      throw LocalProjectError(.unavailable, "cannot connect to postgres: \(error.message)")
    }
    defer { connection.close() }
    var migrator = Migrator(migrationsDir: state.migrationsDir)
    migrator.announce = { [progress] count in
      progress?("applying the schema (\(count) migration\(count == 1 ? "" : "s"), about 2 s)")
    }
    if state.projectDir != nil {
      migrator.folderMigrations = true
      migrator.applyFolderMigrations = state.migrationsEnabled
    }
    let applied = try migrator.apply(on: connection)
    try APIRoleSettings(state: state, previous: previous).apply(on: connection)
    if let folder {
      try ProjectBuckets(buckets: folder.buckets).apply(on: connection)
      // A new database (the bootstrap ran now): the first start, or after a reset.
      if applied.contains(BootstrapSQL.version) {
        let seed = ProjectSeed(config: folder)
        let (files, unmatched) = seed.files()
        for pattern in unmatched {
          printError("snm local: no seed file matches \(pattern) in [db.seed] sql_paths")
        }
        try seed.apply(files, on: connection)
      }
    }
    return state
  }
}
