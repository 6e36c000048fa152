#if canImport(Glibc)
  import Glibc
#endif

/// Whether a folder of snm's own is closed to other accounts: a folder another account owns, or
/// one its group or others may write in, lets them plant or swap what snm keeps there (a
/// session, a project's JWT secret and pid file).
///
/// ```swift
/// if let problem = PrivateFolder.problem(path, owner: { "uid \($0)" }) { refuse(problem) }
/// ```
public enum PrivateFolder {
  /// Why `path` is not private (`it belongs to <owner(uid)>`, `others may write in it (mode
  /// 777)`), or nil when it is this user's and closed to others, or missing.
  public static func problem(_ path: String, owner: (uid_t) -> String) -> String? {
    var info = stat()
    guard stat(path, &info) == 0 else { return nil }
    if info.st_uid != geteuid() { return "it belongs to \(owner(info.st_uid))" }
    if info.st_mode & 0o022 != 0 {
      return "others may write in it (mode \(String(info.st_mode & 0o777, radix: 8)))"
    }
    return nil
  }

  /// Why another account could put a folder of its own in `path`'s place, or nil: a folder above
  /// it that another account owns, or that others may write in without the sticky bit (they may
  /// rename it and make their own), or a link on the way that another account owns (one in /tmp,
  /// which it may replace). A folder of snm's closed to others (``problem(_:owner:)``) is still
  /// theirs to swap then: a link of theirs to a folder of yours had snm write your history and
  /// sessions where they chose, root's clusters made and deleted where they pointed. Root's
  /// folders and links, and this user's, are trusted; a relative `path` is not walked.
  public static func swappable(_ path: String, owner: (uid_t) -> String) -> String? {
    guard path.hasPrefix("/") else { return nil }
    var prefix = ""
    for name in path.split(separator: "/") {
      let parent = prefix.isEmpty ? "/" : prefix
      // `String(name)`: a Substring appended took the generic append(contentsOf:), whose first
      // use at start-up cost 260k instructions (the runtime looking up its conformances).
      prefix += "/"
      prefix += String(name)
      var info = stat()
      // Not a folder (`/dev/null/snm`): nothing can be made under it, and making it says why;
      // a device's mode (0666) says nothing of who may swap what is in a folder.
      guard stat(parent, &info) == 0, info.st_mode & S_IFMT == S_IFDIR else { return nil }
      // Its owner may rename what is in it, sticky or not, whatever its mode says of others.
      if info.st_uid != 0, info.st_uid != geteuid() {
        return "\(VisibleTextLine.escaped(parent)) is \(owner(info.st_uid))'s, who may put a "
          + "folder of theirs in its place"
      }
      if info.st_mode & 0o022 != 0, info.st_mode & S_ISVTX == 0 {
        let mode = String(info.st_mode & 0o777, radix: 8)
        return "others may write in \(VisibleTextLine.escaped(parent)) (mode \(mode)), and so put "
          + "a folder of theirs in its place"
      }
      var link = stat()
      guard lstat(prefix, &link) == 0 else { return nil }
      if link.st_mode & S_IFMT == S_IFLNK, link.st_uid != 0, link.st_uid != geteuid() {
        return "\(VisibleTextLine.escaped(prefix)) is a link \(owner(link.st_uid)) owns, who may "
          + "point it elsewhere"
      }
    }
    return nil
  }
}
