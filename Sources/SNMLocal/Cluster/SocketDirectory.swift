import Foundation
import SNMWire

#if canImport(Glibc)
  import Glibc
#endif

/// The folder that holds Postgres' unix socket. Whoever can write in it can put their own server
/// in the socket's place and read every password the gateway sends (the cluster trusts its
/// socket), so it must be the cluster owner's alone: mode 0700, owned by that account, a real
/// folder and no symbolic link.
///
/// ```swift
/// try SocketDirectory.ensure(layout.baseDir + "/run", owner: owner)   // mkdir 0700, or verify
/// let private = try SocketDirectory.makePrivate(owner: owner)          // /tmp/snm-XXXXXX
/// ```
/// Throws `LocalProjectError` naming the folder and what is wrong with it.
enum SocketDirectory {
  /// The account a socket folder must belong to: its uid and gid.
  struct Owner: Equatable {
    var uid: uid_t
    var gid: gid_t

    /// The cluster's owner (`postgres` when snm runs as root), else (a cluster with no owner)
    /// the running user. Throws when the owner has no account (``ClusterLayout/ownerAccount()``).
    static func of(_ layout: ClusterLayout) throws(LocalProjectError) -> Owner {
      guard let account = try layout.ownerAccount() else {
        return Owner(uid: getuid(), gid: getgid())
      }
      return Owner(uid: account.uid, gid: account.gid)
    }
  }

  /// Creates `path` as a private folder of `owner`, or checks the one that is there.
  ///
  /// `mkdir` with mode 0700 either makes the folder (then nobody else can have it) or fails
  /// because something exists: that must already be `owner`'s 0700 folder, else this throws
  /// rather than adopt it.
  static func ensure(_ path: String, owner: Owner) throws(LocalProjectError) {
    if mkdir(path, 0o700) == 0 {
      try hand(path, to: owner)
      return
    }
    guard errno == EEXIST else {
      throw LocalProjectError(
        .failed, "cannot create the socket directory \(path): \(String(cString: strerror(errno)))")
    }
    if let problem = problem(with: path, owner: owner) {
      throw LocalProjectError(
        .failed,
        "refusing the socket directory \(path): \(problem); it must be a folder of its own, "
          + "owned by \(accountName(owner.uid)) with mode 0700 (anyone else who can write in it "
          + "could impersonate the database); remove it or fix its owner and mode")
    }
  }

  /// A new folder with a name no one can guess (`mkdtemp`, mode 0700) under /tmp, for clusters
  /// whose own `run/` would make too long a socket path. Throws when /tmp refuses it.
  static func makePrivate(owner: Owner) throws(LocalProjectError) -> String {
    var template = Array("/tmp/snm-XXXXXX".utf8CString)
    let made = template.withUnsafeMutableBufferPointer { buffer -> Bool in
      guard let base = buffer.baseAddress else { return false }
      return mkdtemp(base) != nil
    }
    guard made else {
      throw LocalProjectError(
        .failed, "cannot create a socket directory in /tmp: \(String(cString: strerror(errno)))")
    }
    let path = template.withUnsafeBufferPointer { buffer in
      buffer.baseAddress.map { String(cString: $0) } ?? ""
    }
    try hand(path, to: owner)
    return path
  }

  /// What is wrong with `path` as `owner`'s socket folder, nil when nothing is.
  static func problem(with path: String, owner: Owner) -> String? {
    var info = stat()
    guard lstat(path, &info) == 0 else { return String(cString: strerror(errno)) }
    if (info.st_mode & S_IFMT) == S_IFLNK { return "it is a symbolic link" }
    guard (info.st_mode & S_IFMT) == S_IFDIR else { return "it is not a folder" }
    if info.st_uid != owner.uid { return "it belongs to \(accountName(info.st_uid))" }
    let mode = info.st_mode & 0o7777
    if mode != 0o700 { return "its mode is \(String(mode, radix: 8)), not 700" }
    return nil
  }

  /// Throws unless `path` is `owner`'s private folder (checked again before the gateway
  /// connects through it).
  static func verify(_ path: String, owner: Owner) throws(LocalProjectError) {
    if let problem = problem(with: path, owner: owner) {
      throw LocalProjectError(
        .failed,
        "refusing the socket directory \(path): \(problem) (it must be 0700 and owned by "
          + "\(accountName(owner.uid)))")
    }
  }

  /// Gives a folder this process just made to `owner` (when root makes it for `postgres`). Until
  /// then it is root's, mode 0700: nobody else could have used it meanwhile.
  private static func hand(_ path: String, to owner: Owner) throws(LocalProjectError) {
    chmod(path, 0o700)
    guard owner.uid != getuid() else { return }
    guard chown(path, owner.uid, owner.gid) == 0 else {
      let reason = String(cString: strerror(errno))
      rmdir(path)
      throw LocalProjectError(
        .failed, "cannot give the socket directory \(path) to \(accountName(owner.uid)): \(reason)")
    }
  }

  static func accountName(_ uid: uid_t) -> String {
    if let account = AccountEntry(uid: uid) { return "\(account.name) (uid \(uid))" }
    return "uid \(uid)"
  }
}
