import Foundation

/// The home folder as shells find it: `$HOME` when it is set and not empty, else the account's
/// own (the password database's entry for this user id), else `/` (as login(1) puts an account
/// with no home). Foundation's `NSHomeDirectory()` and `expandingTildeInPath` read no `$HOME`
/// on Linux when run as root, so `HOME=/tmp/h snm ...` put `~/x` in /root.
///
/// ```swift
/// HomeFolder.path()                                 // "/home/kim" ($HOME)
/// HomeFolder.path(home: environment["HOME"])        // a given environment's
/// ```
/// Only `~/` is the home folder in a name snm expands (``LocalPath``); `~kim/` is a name.
public enum HomeFolder {
  /// The home folder for the value of `HOME` given (nil, or empty: unset).
  public static func path(home: String?) -> String {
    if let home, !home.isEmpty { return home }
    var entry = passwd()
    var found: UnsafeMutablePointer<passwd>?
    var room = [CChar](repeating: 0, count: 16384)
    if getpwuid_r(getuid(), &entry, &room, room.count, &found) == 0, found != nil,
      let directory = entry.pw_dir, directory.pointee != 0
    {
      return String(cString: directory)
    }
    return "/"
  }

  /// The home folder for this process's `HOME` (read with getenv: ProcessInfo's environment
  /// copies every variable into a dictionary).
  public static func path() -> String {
    path(home: getenv("HOME").map { String(cString: $0) })
  }
}
