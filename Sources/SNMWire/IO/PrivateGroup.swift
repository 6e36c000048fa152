import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// Whether a folder's group is this user's own: a user-private group, as Fedora, Debian and
/// Ubuntu make one per account (named as the account, its primary group, no one else in it) for
/// a umask of 002, which leaves the folders the user makes writable by that group. Such a group
/// lets no one else write, so a folder it may write in is as closed to others as one of mode 755;
/// OpenSSH takes group-writable files alike. A group any other account is in, as its primary
/// group or as a member, is shared: refused.
///
/// ```swift
/// if info.st_mode & 0o020 != 0, !PrivateGroup.isOwn(info.st_gid) { refuse(...) }
/// ```
public enum PrivateGroup {
  /// Whether `gid` is the private group of the account this process runs as (its effective
  /// uid): the account's primary group, with the account's name, and no other account's primary
  /// group nor any other account among its members. An account or group the system cannot name
  /// is not one.
  public static func isOwn(_ gid: gid_t) -> Bool {
    let uid = geteuid()
    guard let user = account(uid), user.gid == gid, let group = members(of: gid),
      group.name == user.name, group.members.allSatisfy({ $0 == user.name })
    else { return false }
    return !anotherAccount(withPrimaryGroup: gid, than: uid)
  }

  /// The name of the group `gid` (`staff`), else `gid N`.
  public static func name(_ gid: gid_t) -> String {
    members(of: gid)?.name ?? "gid \(gid)"
  }

  /// The name and primary group of the account `uid`.
  private static func account(_ uid: uid_t) -> (name: String, gid: gid_t)? {
    var entry = passwd()
    var found: UnsafeMutablePointer<passwd>?
    var room = [CChar](repeating: 0, count: 16384)
    guard getpwuid_r(uid, &entry, &room, room.count, &found) == 0, found != nil,
      let name = entry.pw_name
    else { return nil }
    return (String(cString: name), entry.pw_gid)
  }

  /// The name of the group `gid` and the accounts listed as its members.
  private static func members(of gid: gid_t) -> (name: String, members: [String])? {
    var entry = group()
    var found: UnsafeMutablePointer<group>?
    var room = [CChar](repeating: 0, count: 65536)
    guard getgrgid_r(gid, &entry, &room, room.count, &found) == 0, found != nil,
      let name = entry.gr_name
    else { return nil }
    var members: [String] = []
    if var member = entry.gr_mem {
      while let each = member.pointee {
        members.append(String(cString: each))
        member += 1
      }
    }
    return (String(cString: name), members)
  }

  /// Whether an account other than `uid` has `gid` as its primary group (the accounts the system
  /// lists; one at a time in the process, for the walk is the C library's shared state).
  private static func anotherAccount(withPrimaryGroup gid: gid_t, than uid: uid_t) -> Bool {
    walk.withLock { _ in
      setpwent()
      defer { endpwent() }
      var entry = passwd()
      var found: UnsafeMutablePointer<passwd>?
      var room = [CChar](repeating: 0, count: 16384)
      while getpwent_r(&entry, &room, room.count, &found) == 0, found != nil {
        if entry.pw_gid == gid && entry.pw_uid != uid { return true }
      }
      return false
    }
  }

  private static let walk = Mutex<Void>(())
}
