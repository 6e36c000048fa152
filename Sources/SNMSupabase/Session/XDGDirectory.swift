import Foundation
import SNMWire

/// snm's folders under the XDG base directories: `$XDG_STATE_HOME/snm` (sessions, history),
/// `$XDG_CACHE_HOME/snm` (the schema cache), `$XDG_CONFIG_HOME/snm` (profiles).
///
/// ```swift
/// XDGDirectory.state.snmPath()     // "/home/kim/.local/state/snm"
/// ```
/// A variable counts only when it holds an absolute path (as the XDG spec says); otherwise the
/// folder is under `$HOME` (`.local/state`, `.cache`, `.config`).
public enum XDGDirectory: Sendable {
  case state
  case cache
  case config

  /// `$XDG_..._HOME/snm`, else `$HOME/<fallback>/snm`.
  public func snmPath(environment: [String: String] = ProcessEnvironment.current)
    -> String
  {
    if let base = environment[variable], base.hasPrefix("/") {
      return base + "/snm"
    }
    return HomeFolder.path(home: environment["HOME"]) + "/" + fallback + "/snm"
  }

  var variable: String {
    switch self {
    case .state: "XDG_STATE_HOME"
    case .cache: "XDG_CACHE_HOME"
    case .config: "XDG_CONFIG_HOME"
    }
  }

  var fallback: String {
    switch self {
    case .state: ".local/state"
    case .cache: ".cache"
    case .config: ".config"
    }
  }
}
