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
}
