import Foundation
import SNMSupabase

/// The project snm talks to and where that choice came from.
///
/// ```swift
/// if let project = try ProjectSelection.resolve(options) { ... } else { /* start the local project */ }
/// ```
/// Order (docs/ARCHITECTURE.md): `--url`/`--key`, else `SUPABASE_URL` with a key from the
/// environment (``keyVariables``, the least privileged first), else `--profile NAME` from
/// `$XDG_CONFIG_HOME/snm/config.json`, else nothing (the local project).
public struct ProjectSelection: Equatable, Sendable {
  /// The project's base URL, without a trailing slash (`http://127.0.0.1:54321`).
  public var url: URL
  /// The API key sent as `apikey` (and as the bearer token without a session). Never printed.
  public var key: String {
    didSet { keyRole = SupabaseAPIKey(key).role }
  }
  /// The role requests run as when no one is signed in: `anon` for a publishable or anon key,
  /// `service_role` for a secret or service_role key (SupabaseAPIKey; an `sb_` key is never
  /// decoded). Read once from the key: every statement asks for it (`$session.role`).
  public private(set) var keyRole: String
  /// The short name the prompt shows: `local`, the profile, or the first label of the host.
  public var name: String
  /// The service key for `admin ...`, `inbox` and `as service` (`sb_secret_...` or the legacy
  /// `service_role` JWT); nil when none is set. Never printed.
  public var serviceKey: String?

  public init(url: URL, key: String, name: String, serviceKey: String? = nil) {
    self.url = url
    self.key = key
    self.keyRole = SupabaseAPIKey(key).role
    self.name = name
    self.serviceKey = serviceKey
  }

  /// A selection for `url` and `key`, named after the URL's host.
  /// - Throws: `UsageError` when `url` is not an http(s) URL with a host.
  public init(url text: String, key: String, name: String? = nil, serviceKey: String? = nil)
    throws(UsageError)
  {
    var trimmed = text.trimmingCharacters(in: .whitespaces)
    while trimmed.hasSuffix("/") { trimmed.removeLast() }
    guard let url = URL(string: trimmed), let scheme = url.scheme?.lowercased(),
      scheme == "http" || scheme == "https", let host = url.host, !host.isEmpty
    else {
      throw UsageError("'\(text)' is not a project URL: expected http(s)://host[:port]")
    }
    guard !key.isEmpty else { throw UsageError("the project key is empty") }
    self.init(
      url: url, key: key, name: name ?? Self.shortName(host: host),
      serviceKey: serviceKey ?? (SupabaseAPIKey(key).role == "service_role" ? key : nil))
  }

  /// Whether the project runs on this machine (the local project, or one like it).
  public var isLocal: Bool { Self.shortName(host: url.host ?? "") == "local" }

  /// `local` for this machine, `abcd` for `abcd.supabase.co`, else the host.
  public static func shortName(host: String) -> String {
    let lower = host.lowercased()
    if ["127.0.0.1", "localhost", "::1", "[::1]", "0.0.0.0"].contains(lower) { return "local" }
    if lower.hasSuffix(".supabase.co"), let first = lower.split(separator: ".").first {
      return String(first)
    }
    return lower
  }

  /// The configured project, or nil when none is (the caller then uses the local project).
  /// - Throws: `UsageError` for half a configuration (a URL without a key or the reverse), a
  ///   malformed URL, an unknown profile or an unreadable config file.
  public static func resolve(
    _ options: ShellOptions,
    environment: [String: String] = ProcessInfo.processInfo.environment
  ) throws(UsageError) -> ProjectSelection? {
    let url = options.url ?? nonEmpty(environment["SUPABASE_URL"])
    let key = options.key ?? keyVariables.lazy.compactMap { nonEmpty(environment[$0]) }.first
    let service =
      options.serviceKey ?? serviceKeyVariables.lazy.compactMap { nonEmpty(environment[$0]) }.first
    switch (url, key) {
    case (let url?, let key?):
      return try ProjectSelection(url: url, key: key, serviceKey: service)
    case (.some, nil):
      throw UsageError(
        "a project URL needs a key: pass --key or set SUPABASE_PUBLISHABLE_KEY (or SUPABASE_ANON_KEY)"
      )
    case (nil, .some) where options.profile == nil:
      throw UsageError("a project key needs a URL: pass --url or set SUPABASE_URL")
    default:
      break
    }
    guard let profile = options.profile else { return nil }
    var selection = try ProfileFile(path: ProfileFile.defaultPath(environment: environment))
      .selection(named: profile)
    if let service = options.serviceKey { selection.serviceKey = service }
    return selection
  }

  /// The variables the service key is taken from (after `--service-key`), in this order.
  public static let serviceKeyVariables = ["SUPABASE_SERVICE_ROLE_KEY", "SUPABASE_SECRET_KEY"]

  /// The variables a key is taken from, in this order: the client keys before the server ones, so
  /// a CI job that exports both runs as `anon` unless it passes `--key`.
  public static let keyVariables = [
    "SUPABASE_PUBLISHABLE_KEY", "SUPABASE_ANON_KEY", "SUPABASE_SECRET_KEY",
    "SUPABASE_SERVICE_ROLE_KEY",
  ]

  private static func nonEmpty(_ text: String?) -> String? {
    guard let text, !text.isEmpty else { return nil }
    return text
  }
}
