import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// What a project folder remembers between commands (`project.json`), plus its JWT secret.
///
/// ```swift
/// var state = try ProjectState.load(dataDir: dir) ?? ProjectState.create(options)
/// try state.save()
/// ```
/// Throws `LocalProjectError` when the files cannot be read or written.
struct ProjectState: Sendable, Equatable {
  var dataDir: String
  var port: Int
  var jwtExpiry: Int
  var refreshReuseInterval: Int
  var migrationsDir: String?
  var layout: ClusterLayout
  var keysIssuedAt: Int

  var stateFile: String { dataDir + "/project.json" }
  var secretFile: String { dataDir + "/jwt-secret" }
  var pidFile: String { dataDir + "/gateway.pid" }
  var logFile: String { dataDir + "/gateway.log" }
  var lockFile: String { dataDir + "/.lock" }
  var url: String { "http://127.0.0.1:\(port)" }

  /// Reads `project.json` in `dataDir`; `nil` when the project was never started there.
  static func load(dataDir: String) throws(LocalProjectError) -> ProjectState? {
    let path = dataDir + "/project.json"
    guard let data = FileManager.default.contents(atPath: path) else { return nil }
    guard let json = try? LocalJSON.parse(Array(data)), let port = json["port"]?.intValue,
      let clusterDir = json["cluster_dir"]?.stringValue,
      let issuedAt = json["keys_issued_at"]?.intValue
    else {
      throw LocalProjectError(.failed, "\(path) is damaged; remove it or run snm local reset")
    }
    return ProjectState(
      dataDir: dataDir, port: port, jwtExpiry: json["jwt_expiry"]?.intValue ?? 3600,
      refreshReuseInterval: json["refresh_reuse_interval"]?.intValue ?? 10,
      migrationsDir: json["migrations"]?.stringValue,
      layout: ClusterLayout(baseDir: clusterDir, owner: json["cluster_owner"]?.stringValue),
      keysIssuedAt: issuedAt)
  }

  /// A fresh state for `options`, choosing where the cluster lives.
  static func create(_ options: LocalProjectOptions) -> ProjectState {
    ProjectState(
      dataDir: options.dataDir, port: options.port, jwtExpiry: options.jwtExpiry,
      refreshReuseInterval: options.refreshReuseInterval, migrationsDir: options.migrationsDir,
      layout: ClusterLayout.choose(projectDir: options.dataDir),
      keysIssuedAt: Int(Date().timeIntervalSince1970))
  }

  func save() throws(LocalProjectError) {
    let json = LocalJSON.object([
      .init("port", .int(port)), .init("jwt_expiry", .int(jwtExpiry)),
      .init("refresh_reuse_interval", .int(refreshReuseInterval)),
      .init("migrations", .optional(migrationsDir)), .init("cluster_dir", .string(layout.baseDir)),
      .init("cluster_owner", .optional(layout.owner)), .init("keys_issued_at", .int(keysIssuedAt)),
    ])
    do {
      // Atomic: `snm local status` in another process may read it while `start` writes it.
      try Data((json.serialized() + "\n").utf8).write(
        to: URL(fileURLWithPath: stateFile), options: .atomic)
    } catch {
      throw LocalProjectError(.failed, "cannot write \(stateFile): \(error)")
    }
  }

  /// The JWT secret, created on first use (random, file mode 0600).
  ///
  /// Two processes may ask at once (`snm local serve` starting, `snm local status` polling): the
  /// secret is written whole to a file of its own and linked into place, so a reader never sees
  /// half of it and the first link wins; the other process reads the winner's. The temporary file
  /// is named per call (pid and random bytes, created exclusively): callers in one process (the
  /// gateway's concurrent requests) never share, and so never unlink, each other's.
  func secret() throws(LocalProjectError) -> [UInt8] {
    if let existing = Self.readSecret(secretFile) { return existing }
    let random: [UInt8]
    let nonce: [UInt8]
    do {
      random = try Crypto.randomBytes(32)
      nonce = try Crypto.randomBytes(8)
    } catch {
      throw LocalProjectError(.failed, "cannot generate a JWT secret: \(error)")
    }
    let text = Crypto.hex(random)
    let temporary = secretFile + ".\(getpid()).\(Crypto.hex(nonce)).tmp"
    let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
    guard fd >= 0 else {
      throw LocalProjectError(.failed, "cannot write \(secretFile) (errno \(errno))")
    }
    defer { unlink(temporary) }
    fchmod(fd, 0o600)
    let written = text.withCString { write(fd, $0, strlen($0)) }
    let synced = fsync(fd) == 0
    close(fd)
    guard written == text.utf8.count, synced else {
      throw LocalProjectError(.failed, "cannot write \(secretFile)")
    }
    if link(temporary, secretFile) == 0 { return Array(text.utf8) }
    if errno == EEXIST, let winner = Self.readSecret(secretFile) { return winner }
    // A file too short to be a secret (damaged): replaced.
    guard rename(temporary, secretFile) == 0 else {
      throw LocalProjectError(.failed, "cannot write \(secretFile) (errno \(errno))")
    }
    return Array(text.utf8)
  }

  /// The secret in `path`, or nil when there is none (or too short a one).
  private static func readSecret(_ path: String) -> [UInt8]? {
    guard let data = FileManager.default.contents(atPath: path), data.count >= 32 else {
      return nil
    }
    return Array(
      String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines).utf8)
  }

  func keys() throws(LocalProjectError) -> ProjectKeys {
    do {
      return try ProjectKeys(secret: try secret(), issuedAt: keysIssuedAt)
    } catch let error as LocalProjectError {
      throw error
    } catch {
      throw LocalProjectError(.failed, "cannot sign the API keys: \(error)")
    }
  }
}
