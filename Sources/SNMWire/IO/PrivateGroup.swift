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
    guard let user = AccountEntry(uid: uid), user.gid == gid, let group = members(of: gid),
      group.name == user.name, group.members.allSatisfy({ $0 == user.name })
    else { return false }
    return anotherAccount(withPrimaryGroup: gid, than: uid) == false
  }

  /// The name of the group `gid` (`staff`), else `gid N`.
  public static func name(_ gid: gid_t) -> String {
    members(of: gid)?.name ?? "gid \(gid)"
  }

  /// The name of the group `gid` and the accounts listed as its members, read into `room` bytes
  /// first and a larger buffer while they do not fit (a group of many members is still found).
  static func members(of gid: gid_t, room: Int = 16384) -> (name: String, members: [String])? {
    GrowingBuffer.read(room: room) { buffer, size -> ((name: String, members: [String])?, Int32) in
      var entry = group()
      var found: UnsafeMutablePointer<group>?
      let failure = getgrgid_r(gid, &entry, buffer, size, &found)
      guard failure == 0, found != nil, let name = entry.gr_name else { return (nil, failure) }
      var members: [String] = []
      if var member = entry.gr_mem {
        while let each = member.pointee {
          members.append(String(cString: each))
          member += 1
        }
      }
      return ((String(cString: name), members), 0)
    }.entry
  }

  /// Whether an account other than `uid` has `gid` as its primary group (the accounts the system
  /// lists; one walk at a time in the process, for the walk is the C library's shared state); nil
  /// when the walk fails before its end (then no one can say the group is private). Each entry
  /// is read into `room` bytes first and a larger buffer while it does not fit: the walk used to
  /// stop at the first entry past its buffer and answer that no other account had the group.
  static func anotherAccount(
    withPrimaryGroup gid: gid_t, than uid: uid_t, room: Int = AccountEntry.firstRoom
  ) -> Bool? {
    walk.withLock { _ in
      setpwent()
      defer { endpwent() }
      while true {
        let next = AccountEntry.read(room: room) { entry, buffer, size, found in
          getpwent_r(&entry, buffer, size, &found)
        }
        guard let account = next.entry else { return next.failure == ENOENT ? false : nil }
        if account.gid == gid && account.uid != uid { return true }
      }
    }
  }

  private static let walk = Mutex<Void>(())
}
