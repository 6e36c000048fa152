import Foundation
import SNMNetwork

/// A refused connection to this machine: a local project that is not running, and how to start
/// it, rather than a bare "connection refused".
///
/// ```swift
/// StoppedLocalProject(error)?.headline   // "the local project at http://127.0.0.1:54321 is not running"
/// StoppedLocalProject(error)?.advice     // "start it with 'snm local start'"
/// ```
struct StoppedLocalProject: Equatable {
  /// `http://127.0.0.1:54321`: scheme, host and port of the refused request.
  var project: String
  var port: Int

  /// The stopped project `error` shows, or nil when it is not a refused connection to a loopback
  /// address.
  init?(_ error: any Error) {
    guard case SNMNetworkError.unreachable(let url, let cause) = error,
      cause == "connection refused", let parts = URLComponents(string: url),
      let host = parts.host?.lowercased(),
      ["127.0.0.1", "localhost", "::1", "[::1]"].contains(host), let scheme = parts.scheme
    else { return nil }
    port = parts.port ?? (scheme == "https" ? 443 : 80)
    let shownHost = host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host
    project = "\(scheme)://\(shownHost):\(port)"
  }

  var headline: String { "the local project at \(project) is not running" }

  /// `failure`'s description, and when it shows a stopped local project, a second line saying so
  /// and how to start it (as `report` prints it, after `snm: `).
  static func described(_ failure: SNMNetworkError) -> String {
    guard let stopped = StoppedLocalProject(failure) else { return failure.description }
    return failure.description + "\nsnm: \(stopped.headline): \(stopped.advice)"
  }

  var advice: String {
    port == 54321
      ? "start it with 'snm local start'"
      : "start it with 'snm local start --port \(port)' (and its --dir, if it has a folder of its own)"
  }
}
