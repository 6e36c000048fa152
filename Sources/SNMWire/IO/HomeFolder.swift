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
    path(home: home, user: getuid())
  }

  /// The home folder for this process's `HOME` (read with getenv: ProcessInfo's environment
  /// copies every variable into a dictionary).
  public static func path() -> String {
    path(home: getenv("HOME").map { String(cString: $0) })
  }

  /// The home folder for `home`, else `user`'s entry in the password database, else `/`. The
  /// entry is read into `room` bytes first, and into twice as many while it does not fit
  /// (ERANGE): an entry past the first buffer (a long one from LDAP) gave `/`, so `~/x` was /x.
  static func path(home: String?, user: uid_t, room: Int = 16384) -> String {
    if let home, !home.isEmpty { return home }
    var size = max(room, 1)
    while true {
      var entry = passwd()
      var found: UnsafeMutablePointer<passwd>?
      var buffer = [CChar](repeating: 0, count: size)
      let (failure, directory): (Int32, String?) = buffer.withUnsafeMutableBufferPointer { room in
        guard let start = room.baseAddress else { return (ERANGE, nil) }
        let failure = getpwuid_r(user, &entry, start, room.count, &found)
        guard failure == 0, found != nil, let directory = entry.pw_dir, directory.pointee != 0
        else { return (failure, nil) }
        return (0, String(cString: directory))
      }
      // The limit only ends a database that keeps answering ERANGE.
      if failure == ERANGE && size < 1 << 26 {
        size *= 2
        continue
      }
      return directory ?? "/"
    }
  }
}
