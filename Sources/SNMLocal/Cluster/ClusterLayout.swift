import Foundation

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

  var dataDir: String { baseDir + "/data" }
  var logFile: String { baseDir + "/postgres.log" }
  var port: Int { 5432 }

  /// The socket directory: `run/` beside the data, or a short folder in /tmp when that path
  /// would not fit a unix socket address (107 bytes).
  var socketDir: String {
    let preferred = baseDir + "/run"
    if preferred.utf8.count + "/.s.PGSQL.5432".utf8.count <= 100 { return preferred }
    return "/tmp/snm-" + Self.shortHash(baseDir)
  }

  /// libpq conninfo for `user` on the database `postgres`.
  func conninfo(user: String) -> String {
    "host='\(socketDir)' port=\(port) dbname=postgres user=\(user) connect_timeout=10 "
      + "application_name=snm client_encoding=UTF8 options='-c client_min_messages=warning'"
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
