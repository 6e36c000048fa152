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

  /// The home folder for `home`, else `user`'s entry in the password database (``AccountEntry``,
  /// read into `room` bytes first and a larger buffer while it does not fit: an entry past the
  /// first buffer gave `/`, so `~/x` was /x), else `/`.
  static func path(home: String?, user: uid_t, room: Int = AccountEntry.firstRoom) -> String {
    if let home, !home.isEmpty { return home }
    guard let entry = AccountEntry(uid: user, room: room), !entry.home.isEmpty else { return "/" }
    return entry.home
  }
}
