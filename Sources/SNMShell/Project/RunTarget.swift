import Foundation
import SNMSupabase

/// What a run talks to, as its first line and its reports say it: the project URL, the kind of
/// key (never the key) and what named it.
///
/// ```swift
/// RunTarget(project: project, source: "--local").line
/// // "target: http://127.0.0.1:54321 (publishable key, from --local)"
/// ```
public struct RunTarget: Sendable, Equatable {
  /// The project URL, without user or password.
  public var url: String
  /// `publishable`, `secret`, `anon`, `service_role` (a legacy key's role), or `unknown`.
  public var keyKind: String
  /// What named the project: `--url`, `--profile staging`, `SUPABASE_URL`, `--local`, or
  /// ``RunTarget/unnamedSource``.
  public var source: String

  /// What the target line says for the local project when nothing named a project.
  public static let unnamedSource = "nothing else named a project"

  /// `target: URL (KIND key, from SOURCE)`.
  public var line: String {
    "target: \(url) (\(keyKind) key, from \(source))"
  }
}

extension RunTarget {
  public init(project: ProjectSelection, source: String) {
    var parts = URLComponents(url: project.url, resolvingAgainstBaseURL: false)
    parts?.user = nil
    parts?.password = nil
    let url = parts?.string ?? project.url.absoluteString
    let key = SupabaseAPIKey(project.key)
    let kind =
      switch key.kind {
      case .publishable: "publishable"
      case .secret: "secret"
      case .legacyJWT: key.role
      case .unknown: "unknown"
      }
    self.init(url: ProjectChoice.shown(url), keyKind: ProjectChoice.shown(kind), source: source)
  }
}
