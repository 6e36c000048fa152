import Foundation
import SNMCrypto
import SNMSupabase

/// The project snm talks to and where that choice came from.
///
/// ```swift
/// if let project = try ProjectSelection.resolve(options) { ... } else { /* start the local project */ }
/// ```
/// Order (docs/ARCHITECTURE.md, ``ProjectChoice``): a flag (`--url`/`--key`, `--profile NAME`
/// from `$XDG_CONFIG_HOME/snm/config.json`, `--local`), else `SUPABASE_URL` with a key from the
/// environment (``keyVariables``, the least privileged first), else nothing.
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
  /// What named the project (`--url`, `SUPABASE_URL`, `--profile staging`), for advice on a URL
  /// that leads nowhere (``UnfoundProjectHost``); nil when not known.
  public var origin: String?

  public init(url: URL, key: String, name: String, serviceKey: String? = nil) {
    self.url = url
    self.key = key
    self.keyRole = SupabaseAPIKey(key).role
    self.name = name
    self.serviceKey = serviceKey
  }

  /// A selection for `url` and `key`, named after the URL's host. A URL that goes on to a
  /// service's path (`https://abcd.supabase.co/rest/v1`, `/auth/v1/...`) stands for its project
  /// (``servicePath(in:)``; the caller says so).
  /// - Throws: `UsageError` when `url` is not an http(s) URL with a host.
  public init(url text: String, key: String, name: String? = nil, serviceKey: String? = nil)
    throws(UsageError)
  {
    guard let url = Self.projectURL(text), let host = url.host else {
      throw UsageError(
        "'\(VisibleText.escaped(text))' is not a project URL: expected http(s)://host[:port]")
    }
    guard !key.isEmpty else { throw UsageError("the project key is empty") }
    self.init(
      url: url, key: key, name: name ?? Self.shortName(host: host),
      serviceKey: serviceKey ?? (SupabaseAPIKey(key).role == "service_role" ? key : nil))
  }

  /// The project's other client keys known to snm (a local project's legacy anon and service_role
  /// JWTs beside its publishable and secret keys): the same project whichever one a run uses.
  /// Never printed.
  public var otherKeys: [String] = []

  /// SHA-256 marks (base64url) of every key known to be this project's, never the keys: its
  /// stored session is this project's only when its marks share one (``FileSessionStore``), so
  /// local projects served in turn on one port never see each other's session.
  public var sessionKeyMarks: Set<String> {
    Set(
      ([key, serviceKey ?? ""] + otherKeys).filter { !$0.isEmpty }.map {
        SHA256Digest.base64URL(of: $0)
      })
  }

  /// Whether the project runs on this machine (the local project, or one like it).
  public var isLocal: Bool { Self.shortName(host: url.host ?? "") == "local" }

  /// The project URL `text` names: http(s) with a host, no trailing slash, and nothing from a
  /// service's path on (``servicePath(in:)``); nil when it is not an http(s) URL with a host.
  public static func projectURL(_ text: String) -> URL? {
    var trimmed = trimmedOfSpaces(text)
    if let path = servicePath(in: trimmed), let range = trimmed.range(of: path, options: .backwards)
    {
      trimmed = String(trimmed[..<range.lowerBound])
    }
    while trimmed.hasSuffix("/") { trimmed.removeLast() }
    guard let url = URL(string: trimmed), let scheme = url.scheme?.lowercased(),
      scheme == "http" || scheme == "https", let host = url.host, !host.isEmpty,
      url.query == nil, url.fragment == nil
    else { return nil }
    return url
  }

  /// The part of a URL from a Supabase service's path on (`/rest/v1`, `/auth/v1/token`,
  /// `/storage/v1/...`, `/functions/v1`, `/realtime/v1`, `/graphql/v1`), or nil: snm adds those
  /// itself, so a URL copied from the dashboard's REST URL stands for its project.
  public static func servicePath(in text: String) -> String? {
    guard let url = URL(string: trimmedOfSpaces(text)), url.host != nil
    else { return nil }
    let segments = url.path.split(separator: "/", omittingEmptySubsequences: false)
    for index in segments.indices.dropLast()
    where serviceNames.contains(segments[index].lowercased()) && segments[index + 1] == "v1" {
      let path = segments[index...].joined(separator: "/")
      return "/" + path + (url.query.map { "?" + $0 } ?? "")
    }
    return nil
  }

  /// `text` without the spaces and tabs around it, as Foundation's `trimmingCharacters(in:
  /// .whitespaces)` takes them (Unicode's space separators and the tab, scalar by scalar), which
  /// costs about 0.7M instructions the first time, before the prompt.
  static func trimmedOfSpaces(_ text: String) -> String {
    let isSpace: (Unicode.Scalar) -> Bool = { scalar in
      scalar == "\t" || scalar.properties.generalCategory == .spaceSeparator
    }
    let scalars = text.unicodeScalars
    guard let first = scalars.firstIndex(where: { !isSpace($0) }),
      let last = scalars.lastIndex(where: { !isSpace($0) })
    else { return "" }
    return String(scalars[first...last])
  }

  static let serviceNames: Set<String> = [
    "rest", "auth", "storage", "functions", "realtime", "graphql",
  ]

  /// `local` for this machine, `abcd` for `abcd.supabase.co`, else the host.
  public static func shortName(host: String) -> String {
    let lower = host.lowercased()
    if ["127.0.0.1", "localhost", "::1", "[::1]", "0.0.0.0"].contains(lower) { return "local" }
    if lower.hasSuffix(".supabase.co"), let first = lower.split(separator: ".").first {
      return String(first)
    }
    return lower
  }

  /// The project flags, variables or a profile name, or nil when none does or `--local` is
  /// given (``ProjectChoice`` says which, and what lost).
  /// - Throws: `UsageError` as ``ProjectChoice/resolve(_:environment:)`` does.
  public static func resolve(
    _ options: ShellOptions,
    environment: [String: String] = ProcessEnvironment.current
  ) throws(UsageError) -> ProjectSelection? {
    guard
      case .project(let selection) = try ProjectChoice.resolve(options, environment: environment)
        .target
    else { return nil }
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
}
