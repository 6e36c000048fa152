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
    let fd = try openLock(path)
    let clock = ContinuousClock()
    let deadline = clock.now.advanced(by: lockTimeout)
    var pause = Duration.milliseconds(2)
    while try !take(fd, path: path) {
      guard clock.now < deadline, !Task.isCancelled else {
        close(fd)
        throw .lockTimeout(path: path)
      }
      try? await Task.sleep(for: pause)
      pause = min(pause * 2, .milliseconds(50))
    }
    return Self.held(fd)
  }

  public func removeDamaged(project: String) throws(SessionStoreError) -> DamagedRemoval {
    let path = lockPath(project: project)
    let fd = try openLock(path)
    guard try take(fd, path: path) else {
      close(fd)
      return .lockHeld
    }
    let lock = Self.held(fd)
    defer { lock.unlock() }
    do {
      _ = try loadStored(project: project)
      return .replaced
    } catch {
      guard case .damaged = error else { return .replaced }
      try delete(project: project)
      return .removed
    }
  }

  /// The lock file at `path`, open (the folder made first).
  private func openLock(_ path: String) throws(SessionStoreError) -> Int32 {
    if RefusedFolder.refuses(directory) { throw .refusedFolder(directory: directory) }
    if let reason = FileIO.makeDirectory(directory) {
      throw .unwritable(path: path, reason: reason)
    }
    let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
    guard fd >= 0 else { throw .unwritable(path: path, reason: FileIO.errorText(errno)) }
    return fd
  }

  /// Tries the lock on `fd` once: false while another holds it. Closes `fd` when it throws.
  private func take(_ fd: Int32, path: String) throws(SessionStoreError) -> Bool {
    if flock(fd, LOCK_EX | LOCK_NB) == 0 { return true }
    let failure = errno
    guard failure == EWOULDBLOCK || failure == EINTR else {
      close(fd)
      throw .unwritable(path: path, reason: FileIO.errorText(failure))
    }
    return false
  }

  private static func held(_ fd: Int32) -> SessionLock {
    SessionLock {
      _ = flock(fd, LOCK_UN)
      close(fd)
    }
  }
}
