import Foundation
import SNMGateway
import SNMWire

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

  /// Where snm keeps the clusters it cannot put in their project's folder (as root, when the
  /// `postgres` account cannot enter that folder): `$SNM_CLUSTERS_DIR`, else
  /// /var/lib/snm/clusters. A test suite points it at a folder of its own, so its projects never
  /// join (or `snm local list --prune` delete) the machine's. ``clustersDirProblem`` says when the
  /// variable is unusable; `snm local` and `snm --local` refuse to start then.
  static var rootClustersDir: String {
    guard let custom = getenv("SNM_CLUSTERS_DIR").map({ String(cString: $0) }), !custom.isEmpty
    else { return defaultClustersDir }
    return custom
  }

  static let defaultClustersDir = "/var/lib/snm/clusters"
  static let postgresAccount = "postgres"

  /// The account the cluster runs as and its folders go to: ``owner``'s entry (`postgres`, as
  /// root), or nil for a cluster with no owner, the running user's (not root: what it makes is
  /// its own, nothing is given away). Throws for an owner the password database has no entry of
  /// (a container, a machine without the postgresql package's account), rather than let the
  /// running user stand in: a folder root keeps, that `postgres` cannot use, an initdb failing
  /// later with another reason.
  func ownerAccount() throws(LocalProjectError) -> AccountEntry? {
    guard let owner else { return nil }
    if let account = AccountEntry(name: owner) { return account }
    throw LocalProjectError(
      .unavailable,
      "the cluster \(baseDir) runs as the account \(owner), which this machine does not have (no "
        + "entry in the password database): install the postgresql package (it makes the "
        + "account) or create it (useradd --system --user-group \(owner))"
        + (getuid() == 0 ? ", or run snm as a user other than root (its cluster is its own)" : ""))
  }

  /// Why `$SNM_CLUSTERS_DIR` cannot hold clusters (not an absolute path of plain names, not a
  /// folder, or, as root, not root's or open to others' writes), or nil when it can or is unset.
  /// The folder itself is made at a cluster's first start (``Cluster/initializeIfNeeded()``).
  static var clustersDirProblem: String? {
    let path = rootClustersDir
    if path == defaultClustersDir { return nil }
    let names = path.split(separator: "/", omittingEmptySubsequences: false).dropFirst()
    guard path.hasPrefix("/"), path.count > 1,
      !names.contains(where: { $0.isEmpty || $0 == ".." || $0 == "." })
    else {
      return "SNM_CLUSTERS_DIR must be an absolute path without ., .. or // (it is \(path))"
    }
    // A file there is no folder to list or keep clusters in (as root its start said the
    // `postgres` account could not enter it, a folder above being closed; `list` showed none).
    var info = stat()
    if stat(path, &info) == 0, info.st_mode & S_IFMT != S_IFDIR {
      return "SNM_CLUSTERS_DIR (\(path)) cannot hold clusters: it is not a folder"
    }
    // Only root keeps clusters there (``choose(projectDir:)``); another user only lists it.
    guard geteuid() == 0 else { return nil }
    if let problem = PrivateFolder.problem(path, owner: SocketDirectory.accountName)
      ?? PrivateFolder.swappable(path, owner: SocketDirectory.accountName)
    {
      return "SNM_CLUSTERS_DIR (\(path)) cannot hold clusters: \(problem)"
    }
    return nil
  }

  /// Picks the layout for `projectDir`: inside it (`postgres/`) unless snm runs as root and the
  /// `postgres` account cannot reach it, in which case under ``rootClustersDir``/<hash>.
  static func choose(projectDir: String) -> ClusterLayout {
    guard getuid() == 0 else { return ClusterLayout(baseDir: projectDir + "/postgres", owner: nil) }
    if reachableByPostgres(projectDir) {
      return ClusterLayout(baseDir: projectDir + "/postgres", owner: postgresAccount)
    }
    return ClusterLayout(
      baseDir: rootClustersDir + "/" + shortHash(projectDir), owner: postgresAccount)
  }

  /// Whether the `postgres` account can enter `directory` (and so every folder above it) and
  /// write in it (`writable`), or only enter it.
  static func reachableByPostgres(_ directory: String, writable: Bool = true) -> Bool {
    let access =
      writable
      ? ["-x", directory, "-a", "-w", directory] : ["-d", directory, "-a", "-x", directory]
    guard
      let outcome = try? Subprocess.run(
        "/usr/sbin/runuser", ["-u", postgresAccount, "--", "test"] + access, directory: "/")
    else { return false }
    return outcome.status == 0
  }

  /// 16 hex digits of SHA-256, stable for a path.
  static func shortHash(_ text: String) -> String {
    let digest = (try? Crypto.sha256(Array(text.utf8))) ?? Array(text.utf8)
    return String(Crypto.hex(digest).prefix(16))
  }
}
