import Foundation
import SNMWire

/// The local Supabase-compatible project: a Postgres cluster plus snm's REST, Auth and Storage gateway.
///
/// ```swift
/// // main.swift, when no project is configured:
/// let endpoint = try LocalProject.ensureRunning()     // default dir, port 54321
/// endpoint.url        // "http://127.0.0.1:54321"
/// endpoint.apiKey      // the publishable key (sb_publishable_...), as a new hosted project hands out
/// ```
/// Throws `LocalProjectError` (`exitCode` 3 when Postgres or the gateway cannot be brought up).
public enum LocalProject {
  /// URL and client key of a running project.
  public struct Endpoint: Sendable, Equatable {
    public var url: String
    /// The publishable key (role anon).
    public var apiKey: String
    /// The secret key (role service_role), for `admin ...`, `inbox` and `as service`.
    public var serviceKey: String
    /// The cluster's superuser over its unix socket (`postgresql://postgres@/postgres?host=...`).
    public var databaseURL: String = ""
    /// The legacy anon and service_role JWTs: the same project's other keys (a session signed in
    /// with one is still this project's under the publishable key).
    public var legacyKeys: [String] = []
  }

  /// Starts the project (creating it on first use) unless it already runs; returns how to reach it.
  /// Each step of a start is said on standard error as it begins (``steps(prefix:quiet:)``).
  public static func ensureRunning(
    _ options: LocalProjectOptions = LocalProjectOptions(), quiet: Bool = false
  ) throws(LocalProjectError) -> Endpoint {
    if let problem = ClusterLayout.clustersDirProblem { throw LocalProjectError(.usage, problem) }
    var controller = LocalProjectController(options: options)
    controller.progress = steps(prefix: "snm: local project", quiet: quiet)
    let status = try controller.start()
    return Endpoint(
      url: status.url, apiKey: status.publishableKey, serviceKey: status.secretKey,
      databaseURL: status.databaseURL, legacyKeys: [status.anonKey, status.serviceRoleKey])
  }

  /// The project's URL and keys when it was ever made, running or not; nothing is started or
  /// reached (`snm check` finds the schema cached for it). Nil when it was never made.
  public static func madeEndpoint(
    _ options: LocalProjectOptions = LocalProjectOptions()
  ) -> Endpoint? {
    guard let status = try? LocalProjectController(options: options).currentStatus() else {
      return nil
    }
    return Endpoint(
      url: status.url, apiKey: status.publishableKey, serviceKey: status.secretKey,
      databaseURL: status.databaseURL, legacyKeys: [status.anonKey, status.serviceRoleKey])
  }
}

extension LocalProject {
  /// How to start the local project snm made on this machine with its gateway at `port`, or nil
  /// when no data dir snm knows records that port: the Supabase CLI's stack on 54321, or any
  /// other server on this machine, is not snm's to start. Reads the records only (nothing is
  /// started or reached).
  ///
  /// ```swift
  /// LocalProject.startCommand(port: 54321)   // "snm local start" (the default project's port)
  /// LocalProject.startCommand(port: 54400)   // "snm local start --project '/home/kim/app'"
  /// ```
  public static func startCommand(port: Int) -> String? {
    let defaultDir = LocalProjectOptions.defaultDataDir()
    var dataDirs = [defaultDir]
    for (_, record) in ProjectRegistry.standard().clusters() {
      if let record, !dataDirs.contains(record.projectDir) { dataDirs.append(record.projectDir) }
    }
    var commands: [String] = []
    for dataDir in dataDirs {
      guard let state = try? ProjectState.load(dataDir: dataDir), state.port == port else {
        continue
      }
      if dataDir == defaultDir {
        commands.append("snm local start")
      } else if let root = state.projectDir,
        ProjectFolder(root: root).defaultDataDir() == dataDir
      {
        commands.append("snm local start --project \(ShellWord.quoted(root))")
      } else {
        commands.append("snm local start --dir \(ShellWord.quoted(dataDir))")
      }
    }
    // Stopped projects may have recorded the same port: each is named, none picked silently.
    guard commands.count > 1 else { return commands.first }
    return commands.joined(separator: " or ")
      + " (\(commands.count) of snm's projects record port \(port))"
  }
}

extension LocalProject {
  /// Says each step of a start on standard error as it begins (`snm: local project: starting
  /// Postgres (about 2 s)`), so a first start's seconds are seen moving; nil (nothing said) when
  /// standard error is not a terminal or `quiet`: a pipe, a CI log and `--quiet` get the result
  /// alone, as the shell's spinner is drawn at a terminal only.
  static func steps(prefix: String, quiet: Bool) -> ((String) -> Void)? {
    guard !quiet, isatty(STDERR_FILENO) == 1 else { return nil }
    return { step in printError("\(prefix): \(step)") }
  }
}
