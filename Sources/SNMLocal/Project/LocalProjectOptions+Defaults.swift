import Foundation

extension LocalProjectOptions {
  /// `$XDG_DATA_HOME/snm/local`, else `~/.local/share/snm/local`.
  public static func defaultDataDir() -> String {
    let environment = ProcessInfo.processInfo.environment
    if let xdg = environment["XDG_DATA_HOME"], xdg.hasPrefix("/") {
      return xdg + "/snm/local"
    }
    let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
    return home + "/.local/share/snm/local"
  }
}
