import Foundation
import SNMWire

#if canImport(Glibc)
  import Glibc
#endif

/// One cluster snm knows on this machine, as `snm local list` shows it: the folder that made it
/// (nil when it was made before snm kept records), whether that folder still holds the project,
/// whether it runs, and how much disk it takes.
///
/// ```swift
/// let known = KnownProject.all(in: .standard())
/// known.filter(\.isOrphan)      // stopped, folder gone: `snm local list --prune` removes them
/// ```
struct KnownProject: Sendable, Equatable {
  var projectDir: String?
  var clusterDir: String
  var record: ProjectRegistry.Record?
  /// The gateway's port, when the folder still holds the project.
  var port: Int?
  var postgresRunning: Bool
  var gatewayRunning: Bool
  /// The folder that made the cluster still holds its project (a project.json naming it).
  var folderExists: Bool
  /// Bytes on disk of the cluster and the project's Storage files.
  var sizeBytes: Int64

  var running: Bool { postgresRunning || gatewayRunning }

  /// Stopped, and its folder is gone (or holds another project now): nothing can use it again.
  var isOrphan: Bool { !running && !folderExists && projectDir != nil }

  /// Stopped, made before snm kept records: no one can tell whether its folder still exists.
  var isUnknown: Bool { !running && projectDir == nil }

  /// Every project and cluster the registry and /var/lib/snm/clusters know of, by cluster folder.
  static func all(in registry: ProjectRegistry) -> [KnownProject] {
    registry.clusters().map { clusterDir, record in
      let layout =
        record?.layout ?? ClusterLayout(baseDir: clusterDir, owner: ClusterLayout.postgresAccount)
      var known = KnownProject(
        projectDir: record?.projectDir, clusterDir: clusterDir, record: record, port: nil,
        postgresRunning: Cluster(layout: layout).isRunning, gatewayRunning: false,
        folderExists: false, sizeBytes: diskUsage(clusterDir))
      if let projectDir = record?.projectDir,
        let state = try? ProjectState.load(dataDir: projectDir),
        state.layout.baseDir == clusterDir
      {
        known.folderExists = true
        known.port = state.port
        let controller = LocalProjectController(options: LocalProjectOptions(dataDir: projectDir))
        known.gatewayRunning = controller.gatewayPID(state).map(Subprocess.isAlive) ?? false
        if !clusterDir.hasPrefix(projectDir + "/") {
          known.sizeBytes += diskUsage(state.storageDir)
        }
      }
      return known
    }
  }

  var json: JSONValue {
    .object([
      .init("project_dir", .optional(projectDir)), .init("folder_exists", .bool(folderExists)),
      .init("cluster_dir", .string(clusterDir)), .init("data_dir", .string(clusterDir + "/data")),
      .init("port", port.map { .int($0) } ?? .null), .init("running", .bool(running)),
      .init("postgres_running", .bool(postgresRunning)),
      .init("gateway_running", .bool(gatewayRunning)), .init("size_bytes", .int(Int(sizeBytes))),
    ])
  }

  /// Stops nothing (it is stopped) and deletes the cluster's folder and its private socket folder,
  /// then forgets the record. Throws when the cluster is not where snm keeps clusters.
  func remove(from registry: ProjectRegistry) throws(LocalProjectError) {
    if FileManager.default.fileExists(atPath: clusterDir) {
      guard
        LocalProjectController.isClusterFolder(clusterDir, of: projectDir ?? "")
      else {
        throw LocalProjectError(
          .failed, "\(clusterDir) is not where snm keeps clusters: not deleted")
      }
      let layout =
        record?.layout ?? ClusterLayout(baseDir: clusterDir, owner: ClusterLayout.postgresAccount)
      do throws(LocalProjectError) {
        try Cluster(layout: layout).destroy()
      } catch  where FileManager.default.fileExists(atPath: clusterDir) {
        throw error
      } catch {
        // Deleted meanwhile (by the project's own start at the same path): gone, as asked.
      }
    }
    if let projectDir { registry.forget(projectDir) }
  }

  /// Bytes on disk under `path` (as `du` counts them), 0 when it is not there.
  static func diskUsage(_ path: String) -> Int64 {
    var info = stat()
    guard lstat(path, &info) == 0 else { return 0 }
    var total = Int64(info.st_blocks) * 512
    guard (info.st_mode & S_IFMT) == S_IFDIR,
      let names = try? FileManager.default.contentsOfDirectory(atPath: path)
    else { return total }
    for name in names { total += diskUsage(path + "/" + name) }
    return total
  }

  /// `41.3 MB`, `812 kB`, `0 B`.
  static func readableSize(_ bytes: Int64) -> String {
    let units = ["B", "kB", "MB", "GB", "TB"]
    var value = Double(bytes)
    var unit = 0
    while value >= 1000 && unit < units.count - 1 {
      value /= 1000
      unit += 1
    }
    return unit == 0 ? "\(bytes) B" : String(format: "%.1f", value) + " " + units[unit]
  }
}
