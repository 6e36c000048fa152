import Foundation
import SNMWire

extension LocalCommand {
  /// Runs the command and prints its report; returns the exit code: 0, or for `status` 3 when the
  /// project is not running (as `pg_ctl status`; `--json` still prints the status). `serve`
  /// never returns.
  ///
  /// - Throws: `LocalProjectError`.
  public func run(onTermination: @escaping TerminationHook) throws(LocalProjectError) -> Int32 {
    if let problem = ClusterLayout.clustersDirProblem { throw LocalProjectError(.usage, problem) }
    var controller = LocalProjectController(
      options: options, given: given, onTermination: onTermination)
    try useProjectFolder(&controller)
    controller.progress = LocalProject.steps(prefix: "snm local", quiet: false)
    // Every action works on the data dir the project folder chose (its own, without --dir):
    // `logs`, `inbox` and `idp` read theirs from the command's options.
    var command = self
    command.options.dataDir = controller.options.dataDir
    return try command.perform(controller)
  }

  /// The action, on the project `controller` names.
  private func perform(_ controller: LocalProjectController) throws(LocalProjectError) -> Int32 {
    switch action {
    case .start:
      var already = false
      let status = try controller.start { _ in already = true }
      report(status, headline: already ? "already running" : "started")
    case .restart:
      report(try controller.restart(), headline: "restarted")
    case .reset:
      report(try controller.reset(), headline: "reset and started")
    case .stop:
      let stopped = try controller.stop()
      if json {
        printJSON(JSONValue.object([.init("stopped", .bool(stopped))]))
      } else {
        printLine(
          stopped
            ? "snm local: stopped (\(options.dataDir))"
            : "snm local: not running (\(options.dataDir))")
      }
    case .status:
      guard let status = try controller.currentStatus() else {
        if json {
          printJSON(
            JSONValue.object([
              .init("running", .bool(false)), .init("data_dir", .string(options.dataDir)),
              .init("url", .null), .init("anon_key", .null), .init("service_role_key", .null),
              .init("publishable_key", .null), .init("secret_key", .null),
            ]))
        } else {
          printLine("snm local: no project in \(options.dataDir) (run snm local start)")
        }
        return Self.notRunning
      }
      report(status, headline: status.running ? "running" : "stopped")
      if !status.running { return Self.notRunning }
    case .destroy:
      return try runDestroy(controller)
    case .list:
      return try runList()
    case .serve:
      try controller.serve()
    case .inbox:
      try printInbox(controller)
    case .logs:
      try printLogs()
    case .functions:
      try runFunctions()
    case .idp:
      return try printTestToken()
    }
    return 0
  }

  /// `snm local status`'s exit code for a project that is stopped or was never started: the
  /// project is unreachable (ARCHITECTURE.md's 3).
  static let notRunning: Int32 = 3

  func report(_ status: LocalProjectStatus, headline: String) {
    if json {
      printJSON(status.json)
      return
    }
    var lines = ["snm local: \(headline)"]
    lines.append("  URL               \(status.url)")
    lines.append("  REST              \(status.url)/rest/v1")
    lines.append("  Auth              \(status.url)/auth/v1")
    // Keys are secrets: the human report names them, `--json` (asked for by a program) prints them.
    lines.append("  publishable key   ******** (--json prints the keys)")
    lines.append("  secret key        ********")
    lines.append("  anon key          ******** (legacy JWT)")
    lines.append("  service_role key  ******** (legacy JWT)")
    if let folder = status.projectDir {
      lines.append("  project folder    \(folder)")
      lines.append(
        "  config            \(status.configFile ?? "none (supabase/config.toml absent)")")
    }
    lines.append("  data dir          \(status.dataDir)")
    lines.append("  cluster           \(status.clusterDir)")
    lines.append("  database          \(status.databaseURL)")
    lines.append(
      "  postgres          \(status.postgresRunning ? "running" : "stopped")"
        + (status.postgresVersion.map { " (\($0))" } ?? ""))
    lines.append(
      "  gateway           "
        + (status.gatewayPID.map { "running (pid \($0), log \(status.logFile))" } ?? "stopped"))
    printLine(lines.joined(separator: "\n"))
  }
}
