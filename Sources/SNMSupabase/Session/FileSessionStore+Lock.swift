import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

extension FileSessionStore {
  /// Takes an exclusive `flock` on the project's `.lock` file, polling without blocking a thread
  /// (another holder in this process must be able to run meanwhile).
  ///
  /// - Throws: `.unwritable` when the lock file cannot be opened, `.lockTimeout` when the lock
  ///   stays taken past `lockTimeout`.
  public func lock(project: String) async throws(SessionStoreError) -> SessionLock {
    let path = lockPath(project: project)
    if RefusedFolder.refuses(directory) { throw .refusedFolder(directory: directory) }
    if let reason = FileIO.makeDirectory(directory) {
      throw .unwritable(path: path, reason: reason)
    }
    let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
    guard fd >= 0 else { throw .unwritable(path: path, reason: FileIO.errorText(errno)) }
    let clock = ContinuousClock()
    let deadline = clock.now.advanced(by: lockTimeout)
    var pause = Duration.milliseconds(2)
    while flock(fd, LOCK_EX | LOCK_NB) != 0 {
      let failure = errno
      guard failure == EWOULDBLOCK || failure == EINTR else {
        close(fd)
        throw .unwritable(path: path, reason: FileIO.errorText(failure))
      }
      guard clock.now < deadline, !Task.isCancelled else {
        close(fd)
        throw .lockTimeout(path: path)
      }
      try? await Task.sleep(for: pause)
      pause = min(pause * 2, .milliseconds(50))
    }
    return SessionLock {
      _ = flock(fd, LOCK_UN)
      close(fd)
    }
  }
}
