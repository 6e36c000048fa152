import Foundation
import SNMLocal
import SNMShell
import SNMWire

/// The project a run talks to (``ProjectChoice``), with the local project started when it is the
/// one: what `snm test`, scripts and the shell do before anything else.
///
/// ```swift
/// let (project, target) = try ProjectTargeting.choose(options, needsName: nil)
/// print(target.line)    // target: http://127.0.0.1:54321 (publishable key, from --local)
/// ```
/// The notes of the choice (a flag that beat a variable naming another project) go to standard
/// error first. Where nothing names a project, `needsName` (why one is needed, as a clause after
/// "no project named": "" or ", and CI is set (CI=true)") makes that a usage error saying how to
/// name one; without it the local project is used, and standard error says so.
enum ProjectTargeting {
  static func choose(_ options: ShellOptions, needsName: String?) throws -> (
    ProjectSelection, RunTarget
  ) {
    let choice = try ProjectChoice.resolve(options)
    for note in choice.notes { say(note) }
    switch choice.target {
    case .project(var project):
      project.origin = choice.source
      return (project, RunTarget(project: project, source: choice.source))
    case .local(let key, let serviceKey):
      let project = try localProject(key: key, serviceKey: serviceKey, quiet: options.quiet)
      return (project, RunTarget(project: project, source: choice.source))
    case .unnamed:
      if let needsName {
        throw UsageError("no project named\(needsName): \(ProjectChoice.howToName)")
      }
      let project = try localProject(key: nil, serviceKey: options.serviceKey, quiet: options.quiet)
      say(
        "no project named (--url, SUPABASE_URL, --profile): using the local project at "
          + "\(project.url.absoluteString) (--local chooses it without this note)")
      return (project, RunTarget(project: project, source: RunTarget.unnamedSource))
    }
  }

  /// The local project (default folder, port 54321), started on first use; each step of a start
  /// said on standard error at a terminal, unless `quiet`.
  static func localProject(key: String?, serviceKey: String?, quiet: Bool) throws
    -> ProjectSelection
  {
    let endpoint = try LocalProject.ensureRunning(quiet: quiet)
    var project = try ProjectSelection(
      url: endpoint.url, key: key ?? endpoint.apiKey, name: "local",
      serviceKey: serviceKey ?? endpoint.serviceKey)
    project.otherKeys = Self.keys(of: endpoint)
    // `realtime check` reads this project's database (the shell reads none itself).
    RealtimeCheckDatabases.shared.register(
      LocalRealtimeCheckDatabase(databaseURL: endpoint.databaseURL), for: project.url)
    return project
  }

  /// Every client key of a local project (publishable, secret, legacy anon and service_role): a
  /// session signed in with any of them is this project's (``ProjectSelection/otherKeys``).
  static func keys(of endpoint: LocalProject.Endpoint) -> [String] {
    [endpoint.apiKey, endpoint.serviceKey] + endpoint.legacyKeys
  }

  /// The project a run would talk to, found without starting or reaching anything (for `snm
  /// check`): the named one, else the local project when it was made. Nil when the choice is
  /// incomplete (a URL without a key) or the local project was never made.
  static func offline(_ options: ShellOptions) -> ProjectSelection? {
    guard let choice = try? ProjectChoice.resolve(options) else { return nil }
    switch choice.target {
    case .project(let project):
      return project
    case .local(let key, _):
      return madeLocalProject(key: key)
    case .unnamed:
      return madeLocalProject(key: nil)
    }
  }

  static func madeLocalProject(key: String?) -> ProjectSelection? {
    guard let endpoint = LocalProject.madeEndpoint(),
      var project = try? ProjectSelection(
        url: endpoint.url, key: key ?? endpoint.apiKey, name: "local")
    else { return nil }
    project.otherKeys = keys(of: endpoint)
    return project
  }

  static func say(_ note: String) {
    StandardStreams.writeError("snm: \(note)\n")
  }
}
