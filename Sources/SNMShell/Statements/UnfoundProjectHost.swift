import Foundation
import SNMNetwork
import SNMSupabase

/// A project URL whose host name is not found (`https://WRONGREF.supabase.co`): what to check,
/// the URL's host and what named it, rather than a bare "host not found" that reads like a
/// network fault. Never a key: only the host is shown.
///
/// ```swift
/// UnfoundProjectHost.advice(for: error, project: project)
/// // "no host is named wrongref.supabase.co: check the project URL (from SUPABASE_URL): ..."
/// ```
enum UnfoundProjectHost {
  /// The advice for `error`, or nil when it is not the project's host that was not found: a
  /// request's (its URL's host is the project's) or the Realtime socket's (always the project's).
  static func advice(for error: any Error, project: ProjectSelection) -> String? {
    guard let projectHost = project.url.host?.lowercased(), !projectHost.isEmpty else {
      return nil
    }
    switch error {
    case SNMNetworkError.unreachable(let url, let cause) where cause == notFound:
      guard URLComponents(string: url)?.host?.lowercased() == projectHost else { return nil }
    case RealtimeError.socket(.unreachable(let cause)) where cause == notFound:
      break
    default:
      return nil
    }
    var advice = "no host is named \(ProjectChoice.shown(projectHost)): check the project URL"
    if let origin = project.origin { advice += " (from \(ProjectChoice.shown(origin)))" }
    if projectHost.hasSuffix(".supabase.co"), let ref = projectHost.split(separator: ".").first {
      advice +=
        ": '\(ProjectChoice.shown(String(ref)))' must be the project's ref, as in its "
        + "dashboard's address (supabase.com/dashboard/project/REF)"
    }
    return advice + "; or this machine cannot look names up (no network, no DNS)"
  }

  /// What both transports say when a name does not resolve.
  static let notFound = "host not found"
}
