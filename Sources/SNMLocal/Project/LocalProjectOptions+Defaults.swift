import Foundation
import SNMWire

extension LocalProjectOptions {
  /// `$XDG_DATA_HOME/snm/local`, else `~/.local/share/snm/local`.
  public static func defaultDataDir() -> String {
    // Two variables read with getenv: ProcessInfo's environment copies all of them into a
    // dictionary (400k instructions), and every command line makes a LocalProjectOptions.
    func variable(_ name: String) -> String? { getenv(name).map { String(cString: $0) } }
    if let xdg = variable("XDG_DATA_HOME"), xdg.hasPrefix("/") {
      return xdg + "/snm/local"
    }
    let home = HomeFolder.path(home: variable("HOME"))
    return home + "/.local/share/snm/local"
  }
}
