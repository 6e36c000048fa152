import Foundation
import SNMGateway

/// Where a project's Postgres cluster lives and who runs it.
///
/// ```swift
/// let layout = try ClusterLayout.choose(projectDir: "/root/p")
/// layout.dataDir      // /var/lib/snm/clusters/3f2a…/data when run as root under /root
/// layout.socketDir    // unix socket directory (no TCP)
/// ```
struct ClusterLayout: Sendable, Equatable {
  /// The folder holding `data/` (PGDATA), `run/` (socket) and `postgres.log`.
  var baseDir: String
  /// The unix account that owns and runs the cluster when snm runs as root; `nil` otherwise.
  var owner: String?
  /// The private socket folder under /tmp (`mkdtemp`) chosen at start when `run/` would not fit
  /// a socket address; remembered in project.json (`socket_dir`).
  var privateSocketDir: String? = nil

  var dataDir: String { baseDir + "/data" }
  var logFile: String { baseDir + "/postgres.log" }
  var port: Int { 5432 }

  /// The socket directory: `run/` beside the data, or, when that path would not fit a unix
  /// socket address (107 bytes), the private folder chosen at start (`Cluster.readySocketDir`).
  var socketDir: String {
    if !needsPrivateSocketDir { return baseDir + "/run" }
    return privateSocketDir ?? legacySocketDir
  }

  /// Whether `run/` beside the data makes too long a socket path.
  var needsPrivateSocketDir: Bool {
    (baseDir + "/run").utf8.count + "/.s.PGSQL.5432".utf8.count > 100
  }

  /// Where snm 0.1.0 put the socket of such a cluster: a name anyone could guess (and create
  /// first). Used only for a cluster still running from then, after checking it.
  var legacySocketDir: String { "/tmp/snm-" + Self.shortHash(baseDir) }

  /// libpq conninfo for `user` on the database `postgres`.
  func conninfo(user: String) -> String {
    "host='\(socketDir)' port=\(port) dbname=postgres user=\(user) connect_timeout=10 "
      + "application_name=snm client_encoding=UTF8 options='-c client_min_messages=warning -c client_connection_check_interval=2000'"
  }

  static let rootClustersDir = "/var/lib/snm/clusters"
  static let postgresAccount = "postgres"

  /// Picks the layout for `projectDir`: inside it (`postgres/`) unless snm runs as root and the
  /// `postgres` account cannot reach it, in which case under /var/lib/snm/clusters/<hash>.
  static func choose(projectDir: String) -> ClusterLayout {
    guard getuid() == 0 else { return ClusterLayout(baseDir: projectDir + "/postgres", owner: nil) }
    if reachableByPostgres(projectDir) {
      return ClusterLayout(baseDir: projectDir + "/postgres", owner: postgresAccount)
    }
    return ClusterLayout(
      baseDir: rootClustersDir + "/" + shortHash(projectDir), owner: postgresAccount)
  }

  /// Whether the `postgres` account can enter `directory` (and so every folder above it).
  static func reachableByPostgres(_ directory: String) -> Bool {
    guard
      let outcome = try? Subprocess.run(
        "/usr/sbin/runuser",
        ["-u", postgresAccount, "--", "test", "-x", directory, "-a", "-w", directory],
        directory: "/")
    else { return false }
    return outcome.status == 0
  }

  /// 16 hex digits of SHA-256, stable for a path.
  static func shortHash(_ text: String) -> String {
    let digest = (try? Crypto.sha256(Array(text.utf8))) ?? Array(text.utf8)
    return String(Crypto.hex(digest).prefix(16))
  }
}
