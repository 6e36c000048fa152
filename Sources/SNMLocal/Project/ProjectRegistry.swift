import Foundation
import SNMWire

#if canImport(Glibc)
  import Glibc
#endif

/// The local projects snm started on this machine, so `snm local list` can find their clusters
/// after their folders are gone: one record per project folder in
/// `$XDG_DATA_HOME/snm/projects/<hash of the folder>.json` (0600, in a 0700 folder), and the same
/// record as `snm-project.json` in the cluster's own folder (which names the folder that made a
/// cluster under /var/lib/snm/clusters, or `$SNM_CLUSTERS_DIR`).
///
/// ```swift
/// ProjectRegistry.standard().record(state)        // at every start
/// ProjectRegistry.standard().records()            // [Record(projectDir:clusterDir:...)]
/// ```
struct ProjectRegistry {
  /// What snm remembers of one project: its folder and where its cluster lives.
  struct Record: Sendable, Equatable {
    var projectDir: String
    var clusterDir: String
    /// The private socket folder under /tmp, when the cluster's `run/` path is too long.
    var socketDir: String?
    /// Whether the cluster belongs to the `postgres` account (snm ran as root).
    var owner: String?

    var json: JSONValue {
      .object([
        .init("project_dir", .string(projectDir)), .init("cluster_dir", .string(clusterDir)),
        .init("socket_dir", .optional(socketDir)), .init("cluster_owner", .optional(owner)),
      ])
    }

    init(projectDir: String, clusterDir: String, socketDir: String?, owner: String?) {
      self.projectDir = projectDir
      self.clusterDir = clusterDir
      self.socketDir = socketDir
      self.owner = owner
    }

    init?(json: JSONValue) {
      guard let projectDir = json["project_dir"]?.stringValue, projectDir.hasPrefix("/"),
        let clusterDir = json["cluster_dir"]?.stringValue, clusterDir.hasPrefix("/")
      else { return nil }
      self.init(
        projectDir: projectDir, clusterDir: clusterDir, socketDir: json["socket_dir"]?.stringValue,
        owner: json["cluster_owner"]?.stringValue)
    }

    var layout: ClusterLayout {
      ClusterLayout(baseDir: clusterDir, owner: owner, privateSocketDir: socketDir)
    }
  }

  /// The folder of records.
  var directory: String

  /// The name of the record kept in a cluster's folder.
  static let markerName = "snm-project.json"

  /// `$XDG_DATA_HOME/snm/projects` (else `~/.local/share/snm/projects`), beside the default
  /// project.
  static func standard() -> ProjectRegistry {
    let base = URL(fileURLWithPath: LocalProjectOptions.defaultDataDir())
      .deletingLastPathComponent()
    return ProjectRegistry(directory: base.path + "/projects")
  }

  func file(for projectDir: String) -> String {
    directory + "/" + ClusterLayout.shortHash(projectDir) + ".json"
  }

  /// Remembers `state`'s project (and marks its cluster with it). A record that cannot be written
  /// is said on stderr; the project still starts.
  func record(_ state: ProjectState) {
    let record = Record(
      projectDir: state.dataDir, clusterDir: state.layout.baseDir,
      socketDir: state.layout.privateSocketDir, owner: state.layout.owner)
    let contents = Array((record.json.serialized() + "\n").utf8)
    do {
      try Cluster.makePrivateDirectory(directory)
      try Self.writeAtomically(contents, to: file(for: state.dataDir))
      try Self.writeAtomically(contents, to: state.layout.baseDir + "/" + Self.markerName)
    } catch {
      printError("snm local: cannot remember the project in \(directory): \(error.message)")
    }
  }

  /// Forgets the project in `projectDir`.
  func forget(_ projectDir: String) {
    unlink(file(for: projectDir))
  }

  /// Every record here, and every cluster under /var/lib/snm/clusters (with the record in its
  /// folder, or nil for one made before snm kept records) or, in its place, every folder of
  /// `$SNM_CLUSTERS_DIR` (``ClusterLayout/rootClustersDir``) whose record names it, one per
  /// cluster folder.
  func clusters() -> [(clusterDir: String, record: Record?)] {
    var found: [String: Record?] = [:]
    let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
    for name in names.sorted() where name.hasSuffix(".json") {
      guard let record = Self.read(directory + "/" + name) else { continue }
      found[record.clusterDir] = record
    }
    let shared = ClusterLayout.rootClustersDir
    // An unusable $SNM_CLUSTERS_DIR (a relative path) names no folder to read: `snm local`
    // refuses it first; the shell's lookups read the records only.
    let usable = ClusterLayout.clustersDirProblem == nil
    let clusters =
      usable ? (try? FileManager.default.contentsOfDirectory(atPath: shared)) ?? [] : []
    // $SNM_CLUSTERS_DIR is a folder of the user's choosing, which may hold what is no cluster
    // (`list --prune --unknown` deleted every folder there): a cluster there is one snm marked,
    // as it marks each it makes (records are older than the variable). In /var/lib/snm/clusters,
    // snm's own, a folder without its mark is a cluster made before snm kept records.
    let marked = shared != ClusterLayout.defaultClustersDir
    for name in clusters where !name.hasPrefix(".") {
      let clusterDir = shared + "/" + name
      if found[clusterDir] != nil { continue }
      let marker = Self.read(clusterDir + "/" + Self.markerName)
      if marker?.clusterDir == clusterDir {
        found[clusterDir] = marker
      } else if !marked {
        found[clusterDir] = .some(nil)
      }
    }
    return found.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
  }

  static func read(_ path: String) -> Record? {
    guard let data = FileManager.default.contents(atPath: path),
      let json = try? JSONValue(parsing: Array(data))
    else { return nil }
    return Record(json: json)
  }

  /// Writes `contents` to a new file of its own (``PrivateTemporaryFile``) and renames it over
  /// `path`, so a reader sees the old record or the new one, never half of one.
  static func writeAtomically(_ contents: [UInt8], to path: String) throws(LocalProjectError) {
    let temporary = try PrivateTemporaryFile.write(contents, beside: path)
    guard rename(temporary, path) == 0 else {
      let code = errno
      unlink(temporary)
      throw PrivateTemporaryFile.cannotWrite(path, code)
    }
  }
}
