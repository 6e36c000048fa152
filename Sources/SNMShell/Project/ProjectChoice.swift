import Foundation
import SNMSupabase

/// Which project a run talks to, where that choice came from, and what it overrode.
///
/// ```swift
/// let choice = try ProjectChoice.resolve(options, environment: environment)
/// for note in choice.notes { print("snm: \(note)", to: &standardError) }
/// switch choice.target { case .project(let p): ...; case .local: ...; case .unnamed: ... }
/// ```
/// A flag wins over the environment, which wins over files (docs/ARCHITECTURE.md, "Choosing a
/// project"): `--url`/`--key`/`--profile`/`--local` before `SUPABASE_URL` and the key variables,
/// and `--profile NAME` (a flag naming an entry of `$XDG_CONFIG_HOME/snm/config.json`) before
/// them too. Where a source that loses names something else, ``notes`` says which one is used.
public struct ProjectChoice: Sendable, Equatable {
  public enum Target: Sendable, Equatable {
    /// A project named by flags, variables or a profile.
    case project(ProjectSelection)
    /// The local project (`--local`, or `SUPABASE_URL` at its URL with no key): its own keys
    /// unless `key`/`serviceKey` (from `--key`, `--service-key`) say otherwise.
    case local(key: String?, serviceKey: String?)
    /// Nothing names a project.
    case unnamed
  }

  public var target: Target
  /// What named the target, as the target line says it: `--url`, `--profile staging`,
  /// `SUPABASE_URL`, `--local`; empty for ``Target/unnamed``.
  public var source: String
  /// Settings that lost to another source and name something else, one sentence each.
  public var notes: [String] = []

  /// The local project's URL, as `snm local start` gives it by default.
  public static let localURL = "http://127.0.0.1:54321"

  /// Whether `text` is the local project's URL (`http://127.0.0.1:54321`, `localhost`, a slash).
  public static func isLocalURL(_ text: String) -> Bool {
    guard let url = URL(string: ProjectSelection.trimmedOfSpaces(text)),
      url.scheme?.lowercased() == "http", let host = url.host?.lowercased()
    else { return false }
    let path = url.path
    return ["127.0.0.1", "localhost"].contains(host) && url.port == 54321
      && (path.isEmpty || path == "/")
  }

  /// Whether the environment says this runs under CI: `CI` set to anything but empty, `0`,
  /// `false`, `no` or `off` (GitHub Actions, GitLab and CircleCI set `true`, AppVeyor `True`,
  /// some `1`).
  public static func underCI(_ environment: [String: String]) -> Bool {
    guard let value = environment["CI"]?.trimmingCharacters(in: .whitespaces), !value.isEmpty
    else { return false }
    return !["0", "false", "no", "off"].contains(value.lowercased())
  }

  /// What names a project, for the message of a run that needs one.
  public static let howToName =
    "pass --url URL and --key KEY, set SUPABASE_URL and SUPABASE_PUBLISHABLE_KEY (or "
    + "SUPABASE_ANON_KEY, SUPABASE_SECRET_KEY, SUPABASE_SERVICE_ROLE_KEY), pass --profile NAME "
    + "(a project in $XDG_CONFIG_HOME/snm/config.json), or pass --local for the local project"

  /// The choice `options` and `environment` make.
  /// - Throws: `UsageError` for flags that name two projects (`--url` with `--profile`, `--local`
  ///   with either), half a configuration (a URL without a key or the reverse), a malformed URL,
  ///   an unknown profile or an unreadable config file.
  public static func resolve(
    _ options: ShellOptions,
    environment: [String: String] = ProcessEnvironment.current
  ) throws(UsageError) -> ProjectChoice {
    let named = [
      options.url.map { _ in "--url" }, options.profile.map { _ in "--profile" },
      options.local ? "--local" : nil,
    ].compactMap { $0 }
    if named.count > 1 {
      throw UsageError(
        "\(named.joined(separator: " and ")) each name a project: give one of them")
    }
    for (flag, key) in [("--key", options.key), ("--service-key", options.serviceKey)] {
      if let key, let refusal = EnvironmentProject.controlRefusal(key, at: flag) { throw refusal }
    }
    if let service = options.serviceKey,
      let refusal = EnvironmentProject.clientKeyRefusal(
        service, at: "--service-key",
        advice: "pass the secret (or service_role) key, or, to run as anon, leave out "
          + "--service-key and `as service`")
    {
      throw refusal
    }
    let variables = EnvironmentProject(environment: environment)
    var choice: ProjectChoice
    if options.local {
      choice = local(options, variables)
    } else if let profile = options.profile {
      choice = try fromProfile(profile, options, variables)
    } else if let url = options.url {
      choice = try fromURL(url, options, variables)
      choice.notes += pathNote(url, from: "--url")
    } else {
      choice = try fromEnvironment(options, variables)
      if let url = variables.url { choice.notes += pathNote(url, from: "SUPABASE_URL") }
    }
    return choice
  }

  /// Says that `url` (from `source`) went on to a service's path, which snm adds itself.
  public static func pathNote(_ url: String, from source: String) -> [String] {
    guard let path = ProjectSelection.servicePath(in: url),
      let project = ProjectSelection.projectURL(url)
    else { return [] }
    return [
      "\(source) ends in \(shown(path)), which snm adds itself: using the project URL "
        + shown(project.absoluteString)
    ]
  }

  static func local(_ options: ShellOptions, _ variables: EnvironmentProject) -> ProjectChoice {
    var notes: [String] = []
    if let url = variables.url, !isLocalURL(url) {
      notes.append("using the local project (--local), not SUPABASE_URL (\(shown(url)))")
    } else if options.key == nil, let (name, _) = variables.key {
      notes.append("using the local project's own key (--local), not $\(name)")
    }
    return ProjectChoice(
      target: .local(key: options.key, serviceKey: options.serviceKey), source: "--local",
      notes: notes)
  }

  static func fromProfile(
    _ profile: String, _ options: ShellOptions, _ variables: EnvironmentProject
  ) throws(UsageError) -> ProjectChoice {
    let path = ProfileFile.defaultPath(environment: variables.environment)
    var selection = try ProfileFile(path: path).selection(named: profile)
    var notes: [String] = []
    if let url = variables.url, ProjectSelection.projectURL(url) != selection.url {
      notes.append(
        "using profile '\(profile)' (\(shown(selection.url.absoluteString))) from --profile, "
          + "not SUPABASE_URL (\(shown(url)))")
    } else if options.key == nil, let (name, key) = variables.key, key != selection.key {
      notes.append("using the key of profile '\(profile)' (--profile), not $\(name)")
    }
    if let key = options.key {
      if key != selection.key {
        notes.append("using --key, not the key of profile '\(profile)'")
      }
      selection.key = key
    }
    if let service = options.serviceKey { selection.serviceKey = service }
    selection.name = profile
    return ProjectChoice(
      target: .project(selection), source: "--profile \(profile)", notes: notes)
  }

  static func fromURL(_ url: String, _ options: ShellOptions, _ variables: EnvironmentProject)
    throws(UsageError) -> ProjectChoice
  {
    var notes: [String] = []
    let key: String
    if let flag = options.key {
      key = flag
    } else if let (_, value) = try variables.clientKey() {
      key = value
    } else {
      throw UsageError(
        "a project URL needs a key: pass --key or set SUPABASE_PUBLISHABLE_KEY (or SUPABASE_ANON_KEY)"
      )
    }
    let selection = try ProjectSelection(
      url: url, key: key, serviceKey: try variables.serviceKey(after: options.serviceKey))
    if let other = variables.url, ProjectSelection.projectURL(other) != selection.url {
      notes.append(
        "using --url (\(shown(selection.url.absoluteString))), not SUPABASE_URL (\(shown(other)))")
    }
    if let flag = options.key, let (name, value) = variables.key, value != flag {
      notes.append("using --key, not $\(name)")
    }
    return ProjectChoice(target: .project(selection), source: "--url", notes: notes)
  }

  static func fromEnvironment(_ options: ShellOptions, _ variables: EnvironmentProject)
    throws(UsageError) -> ProjectChoice
  {
    let key: String?
    if let flag = options.key { key = flag } else { key = try variables.clientKey()?.value }
    switch (variables.url, key) {
    case (let url?, let key?):
      var notes: [String] = []
      if let flag = options.key, let (name, value) = variables.key, value != flag {
        notes.append("using --key, not $\(name)")
      }
      let selection = try ProjectSelection(
        url: url, key: key, serviceKey: try variables.serviceKey(after: options.serviceKey))
      return ProjectChoice(target: .project(selection), source: "SUPABASE_URL", notes: notes)
    case (let url?, nil) where isLocalURL(url):
      return ProjectChoice(
        target: .local(key: nil, serviceKey: options.serviceKey), source: "SUPABASE_URL")
    case (.some, nil):
      throw UsageError(
        "a project URL needs a key: pass --key or set SUPABASE_PUBLISHABLE_KEY (or SUPABASE_ANON_KEY)"
      )
    case (nil, .some):
      throw UsageError(
        "a project key needs a URL: pass --url or set SUPABASE_URL (or --local for the local "
          + "project)")
    case (nil, nil):
      return ProjectChoice(target: .unnamed, source: "")
    }
  }

  /// `text` as a message shows it: control characters and invisible format characters
  /// (`\u{1B}`, `\u{202E}`) as escapes, by the one escaping walk (``VisibleText``).
  public static func shown(_ text: String) -> String { VisibleText.escaped(text) }
}
