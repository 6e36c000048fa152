import Foundation
import SNMWire

#if canImport(Glibc)
  import Glibc
#endif

/// One Postgres cluster over Debian's binaries: create, start, stop, destroy, and state.
///
/// ```swift
/// let cluster = Cluster(layout: .choose(projectDir: dir))
/// try cluster.initializeIfNeeded()
/// try cluster.start()            // idempotent
/// cluster.isRunning
/// try cluster.stop()
/// ```
/// Every method throws `LocalProjectError` (`.unavailable`) with the tool's own words on failure.
struct Cluster: Sendable {
  let layout: ClusterLayout
  let binDir: String

  init(layout: ClusterLayout, binDir: String = Cluster.findBinDir()) {
    self.layout = layout
    self.binDir = binDir
  }

  /// `$SNM_PG_BIN`, else the newest /usr/lib/postgresql/<n>/bin with initdb.
  static func findBinDir() -> String {
    if let custom = ProcessInfo.processInfo.environment["SNM_PG_BIN"], !custom.isEmpty {
      return custom
    }
    let root = "/usr/lib/postgresql"
    let versions = ((try? FileManager.default.contentsOfDirectory(atPath: root)) ?? [])
      .compactMap(Int.init).sorted(by: >)
    for version in versions
    where FileManager.default.isExecutableFile(atPath: "\(root)/\(version)/bin/initdb") {
      return "\(root)/\(version)/bin"
    }
    return "\(root)/15/bin"
  }

  var isInitialized: Bool {
    FileManager.default.fileExists(atPath: layout.dataDir + "/PG_VERSION")
  }

  /// The major version in PG_VERSION (`15`), when initialised.
  var majorVersion: String? {
    (try? String(contentsOfFile: layout.dataDir + "/PG_VERSION", encoding: .utf8))?
      .trimmingCharacters(in: .whitespacesAndNewlines)
  }

  /// The postmaster's pid from postmaster.pid when that process is alive.
  var postmasterPID: pid_t? {
    guard
      let text = try? String(contentsOfFile: layout.dataDir + "/postmaster.pid", encoding: .utf8),
      let first = text.split(separator: "\n").first, let pid = pid_t(first.trimmingSpaces),
      Subprocess.isAlive(pid)
    else { return nil }
    return pid
  }

  var isRunning: Bool { postmasterPID != nil }

  /// Runs initdb on first use and writes the settings: unix socket only, private permissions.
  func initializeIfNeeded() throws(LocalProjectError) {
    if isInitialized { return }
    guard FileManager.default.isExecutableFile(atPath: binDir + "/initdb") else {
      throw LocalProjectError(
        .unavailable,
        "PostgreSQL is not installed (no initdb in \(binDir)); run scripts/install or apt-get install postgresql"
      )
    }
    // Asked before any folder is made for it: an owner with no account stops the start here.
    let account = try layout.ownerAccount()
    if layout.baseDir.hasPrefix(ClusterLayout.rootClustersDir + "/") {
      try Self.prepareClustersDir()
    }
    try prepareDirectory(layout.baseDir, for: account)
    if FileManager.default.fileExists(atPath: layout.dataDir) {
      try? FileManager.default.removeItem(atPath: layout.dataDir)
    }
    let outcome = try runTool(
      "initdb",
      [
        "-D", layout.dataDir, "-U", "postgres", "--auth=trust", "--encoding=UTF8",
        "--locale=C.UTF-8", "--no-sync", "--no-instructions",
      ])
    guard outcome.status == 0 else {
      throw LocalProjectError(.unavailable, "initdb failed: " + Self.lastLines(outcome.output))
    }
    let settings = """

      # snm local: unix socket only, inside a private folder
      listen_addresses = ''
      port = \(layout.port)
      unix_socket_directories = '\(layout.socketDir)'
      unix_socket_permissions = 0700
      max_connections = 100
      log_min_messages = warning
      log_line_prefix = '%m [%p] '

      """
    guard let handle = FileHandle(forWritingAtPath: layout.dataDir + "/postgresql.conf") else {
      throw LocalProjectError(.failed, "cannot write \(layout.dataDir)/postgresql.conf")
    }
    handle.seekToEndOfFile()
    handle.write(Data(settings.utf8))
    handle.closeFile()
  }
}
