#if canImport(Glibc)
  import Glibc
#endif

/// An account's entry in the password database (`/etc/passwd`, LDAP, ...), read by user id or by
/// name with the reentrant calls (snm has threads: `getpwnam`/`getpwuid` share one static entry)
/// into a buffer that grows until the entry fits: a fixed one took a long entry as no account.
///
/// ```swift
/// AccountEntry(uid: getuid())?.home      // "/home/kim"
/// AccountEntry(name: "postgres")?.uid    // 26
/// ```
public struct AccountEntry: Equatable, Sendable {
  public var name: String
  public var uid: uid_t
  /// The primary group.
  public var gid: gid_t
  /// The home folder as the entry gives it ("" when it gives none).
  public var home: String

  /// The entry of the account `uid`; nil when the database has none (or cannot be read).
  public init?(uid: uid_t) { self.init(uid: uid, room: Self.firstRoom) }

  /// The entry of the account named `name`; nil when the database has none.
  public init?(name: String) { self.init(name: name, room: Self.firstRoom) }

  /// The entry of `uid`, read into `room` bytes first.
  init?(uid: uid_t, room: Int) {
    self.init(room: room) { entry, buffer, size, found in
      getpwuid_r(uid, &entry, buffer, size, &found)
    }
  }

  /// The entry named `name`, read into `room` bytes first.
  init?(name: String, room: Int) {
    self.init(room: room) { entry, buffer, size, found in
      getpwnam_r(name, &entry, buffer, size, &found)
    }
  }

  /// Reads one entry with `lookup` (a `getpw*_r` call) into `room` bytes, then twice as many
  /// while it answers ERANGE.
  private init?(room: Int, _ lookup: Lookup) {
    guard let read = Self.read(room: room, lookup).entry else { return nil }
    self = read
  }

  /// A `getpw*_r` call: the entry to fill, the buffer and its size, where to say it was found.
  typealias Lookup = (
    inout passwd, UnsafeMutablePointer<CChar>, Int, inout UnsafeMutablePointer<passwd>?
  ) -> Int32

  /// The first buffer: the C library's suggested size (`_SC_GETPW_R_SIZE_MAX`), else 1 KiB.
  static var firstRoom: Int {
    let suggested = sysconf(Int32(_SC_GETPW_R_SIZE_MAX))
    return suggested > 0 ? suggested : 1024
  }

  /// One `getpw*_r` call's answer: the entry it found, else nil with the call's error (0: the
  /// database has no such entry; ENOENT: the end of a walk).
  static func read(room: Int, _ lookup: Lookup) -> (entry: AccountEntry?, failure: Int32) {
    GrowingBuffer.read(room: room) { buffer, size in
      var entry = passwd()
      var found: UnsafeMutablePointer<passwd>?
      let failure = lookup(&entry, buffer, size, &found)
      guard failure == 0, found != nil, let name = entry.pw_name else { return (nil, failure) }
      let home = entry.pw_dir.map { String(cString: $0) } ?? ""
      return (
        AccountEntry(name: String(cString: name), uid: entry.pw_uid, gid: entry.pw_gid, home: home),
        0
      )
    }
  }

  init(name: String, uid: uid_t, gid: gid_t, home: String) {
    self.name = name
    self.uid = uid
    self.gid = gid
    self.home = home
  }
}

/// A buffer for the C library's reentrant database readers (`getpwuid_r`, `getgrgid_r`,
/// `getpwent_r`): `room` bytes first, twice as many while the call answers ERANGE (the entry did
/// not fit). The limit (64 MiB) only ends a database that keeps answering ERANGE: that answer is
/// returned as the failure, never taken as "no entry" silently.
enum GrowingBuffer {
  static func read<T>(
    room: Int, _ call: (UnsafeMutablePointer<CChar>, Int) -> (T?, Int32)
  ) -> (entry: T?, failure: Int32) {
    var size = max(room, 1)
    while true {
      var buffer = [CChar](repeating: 0, count: size)
      let (value, failure) = buffer.withUnsafeMutableBufferPointer { room -> (T?, Int32) in
        guard let start = room.baseAddress else { return (nil, ERANGE) }
        return call(start, room.count)
      }
      if failure == ERANGE && size < 1 << 26 {
        size *= 2
        continue
      }
      return (value, failure)
    }
  }
}
