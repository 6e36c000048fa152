import Foundation
import SNMNetwork
import Synchronization

/// A refused connection to this machine: snm's own local project that is not running, and how to
/// start it, or plainly nothing answering there (the Supabase CLI's stack, any other server),
/// rather than a bare "connection refused".
///
/// ```swift
/// StoppedLocalProject(error)?.headline   // "the local project at http://127.0.0.1:54321 is not running"
/// StoppedLocalProject(error)?.advice     // "start it with: snm local start"
/// StoppedLocalProject(error)?.headline   // "nothing answers at http://127.0.0.1:8000" (not snm's)
/// ```
public struct StoppedLocalProject: Equatable {
  /// `http://127.0.0.1:54321`: scheme, host and port of the refused request.
  var project: String
  var port: Int
  /// The command that starts snm's project recorded at `port`; nil when no project of snm's
  /// records that port.
  var start: String?

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
    start = scheme == "http" ? Self.startCommand(port) : nil
  }

  var headline: String {
    guard start != nil else { return "nothing answers at \(project)" }
    return "the local project at \(project) is not running"
  }

  /// `failure`'s description, and when it shows snm's stopped local project, a second line saying
  /// so and how to start it (as `report` prints it, after `snm: `); when `project`'s host was
  /// not found, one saying what to check (``UnfoundProjectHost``).
  static func described(_ failure: SNMNetworkError, project: ProjectSelection) -> String {
    if let advice = UnfoundProjectHost.advice(for: failure, project: project) {
      return failure.description + "\nsnm: \(advice)"
    }
    guard let stopped = StoppedLocalProject(failure), let advice = stopped.advice else {
      return failure.description
    }
    return failure.description + "\nsnm: \(stopped.headline): \(advice)"
  }

  var advice: String? { start.map { "start it with: \($0)" } }

  /// How snm starts its own project recorded at a port, as `snm` sets it at launch
  /// (`LocalProject.startCommand`, from the data dirs' records); by default no port is snm's.
  static var startCommand: @Sendable (Int) -> String? {
    get { lookup.withLock { $0 } }
    set { lookup.withLock { $0 = newValue } }
  }

  private static let lookup = Mutex<@Sendable (Int) -> String?>({ _ in nil })
}

extension StoppedLocalProject {
  /// Lets snm say which local port is its own project's: `find` (a port) is the command that
  /// starts snm's project recorded there, or nil. Set once, before anything is sent.
  public static func recognize(_ find: @escaping @Sendable (Int) -> String?) {
    startCommand = find
  }
}
