import Foundation
import SNMGateway
import SNMWire

#if canImport(Glibc)
  import Glibc
#endif

extension Cluster {
  /// Starts Postgres unless it runs already; waits until it accepts connections.
  func start() throws(LocalProjectError) {
    if isRunning { return }
    try waitForKilledPostmaster()
    try SocketDirectory.ensure(layout.socketDir, owner: .of(layout))
    // synchronous_commit stays on: with it off, a commit acknowledged to a client can be lost
    // when Postgres is killed before its WAL writer runs. The option also overrides the `off`
    // that clusters made by earlier versions have in postgresql.conf. A private socket folder
    // (`/tmp/snm-` and six letters or digits, nothing the shell under pg_ctl would read) is
    // chosen at start, so it is given here rather than in postgresql.conf.
    // wal_level=logical: Realtime's postgres_changes decode the WAL (wal2json); given at start
    // so clusters made before it get it too. max_slot_wal_keep_size: a replication slot nobody
    // reads (Realtime's, should it be left) holds 1 GiB of WAL at most, then Postgres gives it up.
    var options = "-c synchronous_commit=on -c wal_level=logical -c max_slot_wal_keep_size=1GB"
    if layout.needsPrivateSocketDir { options += " -c unix_socket_directories=" + layout.socketDir }
    let outcome = try runTool(
      "pg_ctl",
      [
        "start", "-D", layout.dataDir, "-l", layout.logFile, "-o", options, "-w", "-t", "60", "-s",
      ])
    guard outcome.status == 0 else {
      let log = (try? String(contentsOfFile: layout.logFile, encoding: .utf8)) ?? ""
      throw LocalProjectError(
        .unavailable,
        "postgres did not start: " + Self.lastLines(outcome.output + "\n" + log)
          + " (log: \(layout.logFile))")
    }
  }

  /// Waits until a postmaster that was killed has been reaped by its parent.
  ///
  /// A killed postmaster stays a zombie until its parent (often init, which may reap late) waits
  /// for it; meanwhile Postgres refuses to start ("lock file postmaster.pid already exists") since
  /// the pid in that file still exists. Throws `.unavailable` when it lingers past `timeout` seconds.
  func waitForKilledPostmaster(timeout: Double = 30) throws(LocalProjectError) {
    guard
      let text = try? String(contentsOfFile: layout.dataDir + "/postmaster.pid", encoding: .utf8),
      let first = text.split(separator: "\n").first, let pid = pid_t(first.trimmingSpaces),
      pid > 0
    else { return }
    let deadline = monotonicSeconds() + timeout
    while kill(pid, 0) == 0 && Subprocess.isZombie(pid) {
      guard monotonicSeconds() < deadline else {
        throw LocalProjectError(
          .unavailable,
          "postgres (pid \(pid)) was killed and its parent has not reaped it yet; "
            + "try again in a moment")
      }
      usleep(20_000)
    }
  }

  /// Stops Postgres (fast shutdown) and waits until it is gone. Does nothing when it is not running.
  func stop() throws(LocalProjectError) {
    guard let pid = postmasterPID else { return }
    let outcome = try runTool(
      "pg_ctl", ["stop", "-D", layout.dataDir, "-m", "fast", "-w", "-t", "30", "-s"])
    if outcome.status != 0, Subprocess.isAlive(pid) {
      kill(pid, SIGQUIT)
    }
    for _ in 0..<200 where Subprocess.isAlive(pid) { usleep(25_000) }
    guard !Subprocess.isAlive(pid) else {
      throw LocalProjectError(.failed, "postgres (pid \(pid)) did not stop")
    }
  }

  /// Makes sure the socket folder is the cluster owner's alone and returns the layout to
  /// remember: `run/` beside the data is made (0700) or checked; a cluster whose `run/` path is
  /// too long gets a private folder under /tmp (`mkdtemp`), a new one whenever the remembered
  /// one is gone or fails the check. A running cluster keeps the folder it listens in, which
  /// must pass. Throws `LocalProjectError` for a folder that does not.
  func readySocketDir() throws(LocalProjectError) -> ClusterLayout {
    let owner = try SocketDirectory.Owner.of(layout)
    guard layout.needsPrivateSocketDir else {
      try SocketDirectory.ensure(layout.socketDir, owner: owner)
      return layout
    }
    var readied = layout
    if isRunning {
      let current = listeningSocketDir ?? layout.socketDir
      try SocketDirectory.verify(current, owner: owner)
      readied.privateSocketDir = current
      return readied
    }
    if let chosen = layout.privateSocketDir {
      guard let problem = SocketDirectory.problem(with: chosen, owner: owner) else { return layout }
      var info = stat()
      if lstat(chosen, &info) == 0 {
        printError("snm local: not using the socket directory \(chosen) (\(problem))")
      }
    }
    readied.privateSocketDir = try SocketDirectory.makePrivate(owner: owner)
    return readied
  }

  /// The socket folder the running postmaster listens in (line 5 of postmaster.pid).
  var listeningSocketDir: String? {
    guard
      let text = try? String(contentsOfFile: layout.dataDir + "/postmaster.pid", encoding: .utf8)
    else { return nil }
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
    guard lines.count > 4, !lines[4].isEmpty else { return nil }
    return String(lines[4])
  }

  /// Stops Postgres and deletes the cluster's folder (and its private socket folder).
  func destroy() throws(LocalProjectError) {
    try stop()
    if let socketDir = layout.privateSocketDir { rmdir(socketDir) }
    do {
      if FileManager.default.fileExists(atPath: layout.baseDir) {
        try FileManager.default.removeItem(atPath: layout.baseDir)
      }
    } catch {
      throw LocalProjectError(.failed, "cannot delete \(layout.baseDir): \(error)")
    }
  }

  /// Runs a Postgres tool, as the cluster's owner when snm runs as root.
  func runTool(_ tool: String, _ arguments: [String]) throws(LocalProjectError)
    -> Subprocess.Outcome
  {
    let path = binDir + "/" + tool
    if let owner = layout.owner {
      return try Subprocess.run(
        "/usr/sbin/runuser", ["-u", owner, "--", path] + arguments, directory: layout.baseDir)
    }
    return try Subprocess.run(path, arguments, directory: layout.baseDir)
  }

  /// Creates `path` (0700) and gives it to `account`, the cluster's owner
  /// (``ClusterLayout/ownerAccount()``); with none (not root) the running user who made it keeps it.
  func prepareDirectory(_ path: String, for account: AccountEntry?) throws(LocalProjectError) {
    try Self.makePrivateDirectory(path)
    guard let account else { return }
    guard chown(path, account.uid, account.gid) == 0 else {
      throw LocalProjectError(
        .failed, "cannot give \(path) to \(account.name): \(FileDescriptorIO.reason(errno))")
    }
  }

  /// Makes the folder of clusters kept outside their projects (``ClusterLayout/rootClustersDir``)
  /// one the `postgres` account can pass through: /var/lib/snm and /var/lib/snm/clusters 0755,
  /// owned by root; `$SNM_CLUSTERS_DIR` made 0755 when missing, and refused when it is open to
  /// others' writes or the `postgres` account cannot enter it (its parents closed to it).
  static func prepareClustersDir() throws(LocalProjectError) {
    let root = ClusterLayout.rootClustersDir
    guard root != ClusterLayout.defaultClustersDir else {
      for parent in ["/var/lib/snm", root] {
        try? FileManager.default.createDirectory(atPath: parent, withIntermediateDirectories: true)
        chmod(parent, 0o755)
      }
      return
    }
    if let problem = ClusterLayout.clustersDirProblem { throw LocalProjectError(.usage, problem) }
    if mkdir(root, 0o755) == 0 {
      chmod(root, 0o755)
    } else if errno != EEXIST {
      throw LocalProjectError(
        .failed, "cannot create SNM_CLUSTERS_DIR (\(root)): \(FileDescriptorIO.reason(errno))")
    }
    // Asked again now that it is there: a folder (or link) another account made in its place
    // after the first look, in a parent open to all (sticky, as /tmp), is refused, not used.
    if let problem = ClusterLayout.clustersDirProblem { throw LocalProjectError(.usage, problem) }
    guard ClusterLayout.reachableByPostgres(root, writable: false) else {
      throw LocalProjectError(
        .failed,
        "SNM_CLUSTERS_DIR (\(root)) cannot hold clusters: the \(ClusterLayout.postgresAccount) "
          + "account cannot enter it (a folder above it is closed to others)")
    }
  }

  /// Creates `path` and its parents, and makes it 0700 (also when it existed).
  static func makePrivateDirectory(_ path: String) throws(LocalProjectError) {
    do {
      try FileManager.default.createDirectory(
        atPath: path, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    } catch {
      throw LocalProjectError(.failed, "cannot create \(path): \(error)")
    }
    chmod(path, 0o700)
  }

  /// The last few non-empty lines of a tool's output, joined, for error messages.
  static func lastLines(_ text: String, count: Int = 4) -> String {
    let lines = text.split(separator: "\n").map { $0.trimmingSpaces }.filter { !$0.isEmpty }
    return lines.suffix(count).joined(separator: " | ")
  }
}
