import Foundation
import SNMGateway
import SNMWire

/// A file of the caller's own beside the one it will replace: `snm local`'s records and
/// secrets are written whole there, then linked or renamed into place.
///
/// ```swift
/// let temporary = try PrivateTemporaryFile.write(contents, beside: path)
/// guard rename(temporary, path) == 0 else { ... }
/// ```
enum PrivateTemporaryFile {
  /// Writes `contents` to a new 0600 file beside `path`, named by the pid and random bytes and
  /// made exclusively (never a file, FIFO or link someone put there first: a cluster's folder is
  /// the `postgres` account's, where root writes snm's record), synced; its path. Nothing is
  /// left behind on a failure.
  static func write(_ contents: [UInt8], beside path: String) throws(LocalProjectError) -> String {
    let nonce: [UInt8]
    do {
      nonce = try Crypto.randomBytes(8)
    } catch {
      throw LocalProjectError(.failed, "cannot name a temporary file for \(path): \(error)")
    }
    let temporary = path + ".\(getpid()).\(Crypto.hex(nonce)).tmp"
    let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
    guard fd >= 0 else { throw cannotWrite(path, errno) }
    var failure = FileDescriptorIO.writeAll(fd, contents)
    if failure == nil, fchmod(fd, 0o600) != 0 { failure = errno }
    if failure == nil, fsync(fd) != 0 { failure = errno }
    if close(fd) != 0, failure == nil { failure = errno }
    if let failure {
      unlink(temporary)
      throw cannotWrite(path, failure)
    }
    return temporary
  }

  /// `cannot write PATH: REASON`, the call's errno in words (``FileDescriptorIO/reason(_:)``).
  static func cannotWrite(_ path: String, _ code: Int32) -> LocalProjectError {
    LocalProjectError(.failed, "cannot write \(path): \(FileDescriptorIO.reason(code))")
  }
}
