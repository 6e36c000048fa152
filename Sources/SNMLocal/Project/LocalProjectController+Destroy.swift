import Foundation

#if canImport(Glibc)
  import Glibc
#endif

extension LocalProjectController {
  /// The project in the folder, or a usage error when the folder holds none snm made.
  func existingState() throws(LocalProjectError) -> ProjectState {
    guard let state = try ProjectState.load(dataDir: options.dataDir) else {
      throw LocalProjectError(
        .usage, "no local project in \(options.dataDir) (no project.json): nothing to destroy")
    }
    return state
  }

  /// Stops the project and deletes its cluster and the files snm made in its folder (the folder
  /// too when nothing else is left in it); returns the paths deleted, and what was kept.
  func destroy() throws(LocalProjectError) -> (deleted: [String], kept: [String]) {
    let state = try existingState()
    let lock = try ProjectLock(path: state.lockFile)
    defer { lock.release() }
    _ = stopGateway(state)
    var deleted: [String] = []
    if FileManager.default.fileExists(atPath: state.layout.baseDir) {
      guard Self.isClusterFolder(state.layout.baseDir, of: state.dataDir) else {
        throw LocalProjectError(
          .failed,
          "\(state.stateFile) names the cluster \(state.layout.baseDir), which is not where snm "
            + "keeps clusters: nothing deleted")
      }
      try Cluster(layout: state.layout).destroy()
      deleted.append(state.layout.baseDir)
    }
    let names = (try? FileManager.default.contentsOfDirectory(atPath: state.dataDir)) ?? []
    var kept: [String] = []
    // project.json goes last but for the lock: an interrupted destroy can be run again.
    for name in names.sorted(by: { Self.deletionOrder($0) < Self.deletionOrder($1) }) {
      guard Self.isMadeBySNM(name) else {
        kept.append(name)
        continue
      }
      let path = state.dataDir + "/" + name
      do {
        try FileManager.default.removeItem(atPath: path)
      } catch {
        throw LocalProjectError(.failed, "cannot delete \(path): \(error)")
      }
      if name != ".lock" { deleted.append(path) }
    }
    ProjectRegistry.standard().forget(state.dataDir)
    if kept.isEmpty, rmdir(state.dataDir) == 0 { deleted.append(state.dataDir) }
    return (deleted, kept)
  }

  /// Whether `clusterDir` is where snm puts a cluster for `projectDir`: its `postgres/`, or a
  /// folder of /var/lib/snm/clusters (`$SNM_CLUSTERS_DIR` when set).
  static func isClusterFolder(_ clusterDir: String, of projectDir: String) -> Bool {
    let shared = ClusterLayout.rootClustersDir + "/"
    if projectDir.hasPrefix("/"), projectDir.count > 1, clusterDir == projectDir + "/postgres" {
      return true
    }
    guard clusterDir.hasPrefix(shared) else { return false }
    let name = clusterDir.dropFirst(shared.count)
    return !name.isEmpty && !name.contains("/") && name != "." && name != ".."
  }

  /// The files and folders snm makes in a project folder (and the temporary files it writes
  /// them through).
  static func isMadeBySNM(_ name: String) -> Bool {
    let fixed: Set<String> = [
      "project.json", "jwt-secret", "gateway.pid", "gateway.log", ".lock", "storage", "postgres",
      "functions",
    ]
    if fixed.contains(name) { return true }
    if name.hasPrefix("jwt-signing-key-") && (name.hasSuffix(".pem") || name.hasSuffix(".tmp")) {
      return true
    }
    // the test issuer's key (`snm local idp token`, Sign in with Apple offline)
    let issuerKey = ProjectState.testIssuerKeyName
    if name == issuerKey { return true }
    return
      (name.hasPrefix("jwt-secret.") || name.hasPrefix("project.json.")
      || name.hasPrefix(issuerKey + "."))
      && name.hasSuffix(".tmp")
  }

  static func deletionOrder(_ name: String) -> Int {
    switch name {
    case ".lock": 2
    case "project.json": 1
    default: 0
    }
  }
}
