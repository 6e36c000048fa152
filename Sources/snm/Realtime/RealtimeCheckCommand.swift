import Foundation
import SNMGateway
import SNMLocal
import SNMShell
import SNMWire

/// `snm realtime check TABLE [--dir DIR]`: ``RealtimeCheck`` (the one the `realtime check`
/// statement runs) against the chosen project. The database is asked (as its superuser, over the
/// cluster's socket: ``LocalRealtimeCheckDatabase``) only for a local project named with
/// `--dir DIR` or `--local`; any other is checked through its Realtime join alone, and the
/// report says what that leaves out.
struct RealtimeCheckCommand: Sendable, Equatable {
  var table: String
  /// `--dir`: the local project in DIR.
  var directory: String?
  var options: ShellOptions

  func run() async throws -> ExitCode {
    var options = options
    var databaseURL: String?
    var localKeys: [String] = []
    if let directory {
      if options.url != nil || options.profile != nil {
        throw UsageError(
          "choose one project: --dir names the local project in DIR, not with --url or --profile")
      }
      var local = LocalProjectOptions()
      local.dataDir = directory
      let endpoint = try LocalProject.ensureRunning(local)
      options.url = endpoint.url
      options.key = endpoint.apiKey
      options.serviceKey = endpoint.serviceKey
      databaseURL = endpoint.databaseURL
      localKeys = ProjectTargeting.keys(of: endpoint)
    }
    let environment = ProcessInfo.processInfo.environment
    let (chosen, target) = try ProjectTargeting.choose(
      options,
      needsName: ProjectChoice.underCI(environment)
        ? ", and CI is set (CI=\(ProjectChoice.shown(environment["CI"] ?? "")))" : nil)
    if databaseURL == nil, case .local = try ProjectChoice.resolve(options).target {
      databaseURL = try LocalProject.ensureRunning(LocalProjectOptions()).databaseURL
    }
    _ = target
    // The project in DIR is one project whichever of its keys a session was signed in with.
    var project = chosen
    project.otherKeys += localKeys
    if let databaseURL {
      RealtimeCheckDatabases.shared.register(
        LocalRealtimeCheckDatabase(databaseURL: databaseURL), for: project.url)
    }
    let executor = await StatementExecutor.connected(project: project, options: options)
    return await RealtimeCheck(table: table).run(executor: executor)
  }
}
