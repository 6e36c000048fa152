#if canImport(Glibc)
  import Glibc
#endif

/// Whether a folder of snm's own is closed to other accounts: a folder another account owns, or
/// one others or a group shared with others may write in, lets them plant or swap what snm keeps
/// there (a session, a project's JWT secret and pid file). A group that is the user's own
/// (``PrivateGroup``: umask 002 with user-private groups, as Fedora) lets no one else in.
///
/// ```swift
/// if let problem = PrivateFolder.problem(path, owner: { "uid \($0)" }) { refuse(problem) }
/// ```
public enum PrivateFolder {
  /// Why `path` is not private (`it belongs to <owner(uid)>`, `others may write in it (mode
  /// 777)`, `its group staff may write in it (mode 775), a group not yours alone`), or nil when
  /// it is this user's and closed to others, or missing.
  public static func problem(_ path: String, owner: (uid_t) -> String) -> String? {
    var info = stat()
    guard stat(path, &info) == 0 else { return nil }
    if info.st_uid != geteuid() { return "it belongs to \(owner(info.st_uid))" }
    let mode = { String(info.st_mode & 0o777, radix: 8) }
    if info.st_mode & 0o002 != 0 { return "others may write in it (mode \(mode()))" }
    if sharedGroupMayWrite(info) {
      return "its group \(PrivateGroup.name(info.st_gid)) may write in it (mode \(mode())), a "
        + "group not yours alone"
    }
    return nil
  }

  /// Whether `info`'s group may write in it and is not this user's own private group
  /// (``PrivateGroup``): a umask of 002 with user-private groups (Fedora) makes folders 775
  /// that only the user may write in all the same.
  private static func sharedGroupMayWrite(_ info: stat) -> Bool {
    info.st_mode & 0o020 != 0 && !PrivateGroup.isOwn(info.st_gid)
  }

  /// Why another account could put a folder of its own in `path`'s place, or nil: a folder above
  /// it that another account owns, or that others may write in without the sticky bit (they may
  /// rename it and make their own), or a link on the way that another account owns (one in /tmp,
  /// which it may replace). A folder of snm's closed to others (``problem(_:owner:)``) is still
  /// theirs to swap then: a link of theirs to a folder of yours had snm write your history and
  /// sessions where they chose, root's clusters made and deleted where they pointed. Root's
  /// folders and links, and this user's, are trusted; a relative `path` is not walked. A trusted
  /// link is followed, and the way to where it points walked alike: stat follows every link on
  /// the way, so a link of yours into a folder another account owns (or to a link of theirs)
  /// showed only the folder at the end, yours, while they could swap what the way passes through.
  public static func swappable(_ path: String, owner: (uid_t) -> String) -> String? {
    swappable(path, owner: owner, links: 0)
  }

  /// Links followed at most on the way (Linux's own limit, past which a lookup fails `ELOOP`).
  private static let mostLinks = 40

  private static func swappable(_ path: String, owner: (uid_t) -> String, links: Int) -> String? {
    guard path.hasPrefix("/") else { return nil }
    var prefix = ""
    let names = path.split(separator: "/")
    var index = 0
    for name in names {
      index += 1
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
      if info.st_mode & S_ISVTX == 0, info.st_mode & 0o002 != 0 || sharedGroupMayWrite(info) {
        let mode = String(info.st_mode & 0o777, radix: 8)
        let who =
          info.st_mode & 0o002 != 0
          ? "others" : "its group \(PrivateGroup.name(info.st_gid)), a group not yours alone,"
        return "\(who) may write in \(VisibleTextLine.escaped(parent)) (mode \(mode)), and so put "
          + "a folder of theirs in its place"
      }
      var link = stat()
      guard lstat(prefix, &link) == 0 else { return nil }
      guard link.st_mode & S_IFMT == S_IFLNK else { continue }
      if link.st_uid != 0, link.st_uid != geteuid() {
        return "\(VisibleTextLine.escaped(prefix)) is a link \(owner(link.st_uid)) owns, who may "
          + "point it elsewhere"
      }
      // A trusted link: the way is where it points, then the names after it.
      guard links < mostLinks, let target = target(of: prefix) else { return nil }
      var followed = target.hasPrefix("/") ? target : parent + "/" + target
      while index < names.count {
        followed += "/"
        followed += String(names[index])
        index += 1
      }
      return swappable(followed, owner: owner, links: links + 1)
    }
    return nil
  }

  /// What the link at `path` holds, or nil when it cannot be read.
  private static func target(of path: String) -> String? {
    var room = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
    let count = readlink(path, &room, room.count - 1)
    guard count > 0 else { return nil }
    return String(decoding: room[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }
}
