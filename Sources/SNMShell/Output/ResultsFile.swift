import Foundation
import SNMQuery

/// The file `\o FILE` sends results to: opened (created 0600, or emptied) when named, closed when
/// `\o` sends results back to standard output or another file is named.
///
/// ```swift
/// let file = try ResultsFile(path: "out.txt")
/// file.writer.write("id | name\n")
/// file.close()
/// ```
final class ResultsFile: Sendable {
  /// Why a file could not be opened: the system's reason (`No such file or directory`).
  struct OpenError: Error {
    let reason: String
  }

  let path: String
  let writer: OutputWriter
  private let fd: Int32

  /// Opens `path` for writing, emptying it: under the working directory, as psql's `\o`; a `~/`
  /// at the start is the home folder (``LocalPath``, as every statement's local file).
  /// - Throws: `OpenError` when it cannot be opened (a missing folder, no permission, a folder).
  init(path: String) throws(OpenError) {
    let expanded = LocalPath.resolve(path, directory: nil)
    let fd = open(expanded, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
    guard fd >= 0 else { throw OpenError(reason: String(cString: strerror(errno))) }
    self.path = path
    self.fd = fd
    self.writer = OutputWriter(fd: fd)
  }

  /// Writes out what is gathered and closes the file.
  func close() {
    writer.flush()
    _ = Foundation.close(fd)
  }
}
