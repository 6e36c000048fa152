import SNMWire

#if canImport(Glibc)
  import Glibc
#endif

/// An exclusive lock on a project folder (flock), so two commands never start or stop it at once.
struct ProjectLock {
  let fd: Int32

  /// Waits for the lock. Throws `LocalProjectError` when the lock file cannot be opened.
  init(path: String) throws(LocalProjectError) {
    fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
    guard fd >= 0 else {
      throw LocalProjectError(.failed, "cannot open \(path): \(FileDescriptorIO.reason(errno))")
    }
    while flock(fd, LOCK_EX) != 0 && errno == EINTR {}
  }

  /// Takes the lock only if it is free now; `nil` when another command holds it.
  static func attempt(path: String) -> ProjectLock? {
    let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
    guard fd >= 0 else { return nil }
    guard flock(fd, LOCK_EX | LOCK_NB) == 0 else {
      close(fd)
      return nil
    }
    return ProjectLock(fd: fd)
  }

  private init(fd: Int32) {
    self.fd = fd
  }

  func release() {
    flock(fd, LOCK_UN)
    close(fd)
  }
}
