import Foundation
import Synchronization

/// Standard output and standard error written at once, not gathered: a command's few lines
/// (`snm local list`, `--help`), a message. Foundation's `FileHandle.write` stops the process
/// (SIGILL, exit 132, a stack trace) when a write fails: a full disk (`> /dev/full`), a closed
/// descriptor (`2>&-`), a reader gone (`snm local status | true`). Here a failed write is
/// dropped; standard output's first failure is kept (``outputFailure``) and what follows it
/// dropped, so that snm ends saying what was lost, as it does for rows.
///
/// ```swift
/// StandardStreams.writeOutput("snm local: no local projects on this machine\n")
/// StandardStreams.writeError("snm: warning: ...\n")
/// ```
public enum StandardStreams {
  /// The errno of standard output's first failed write; 0 while none failed.
  private static let lost = Atomic<Int32>(0)

  /// Writes `text` to standard output now; once a write failed, nothing more.
  public static func writeOutput(_ text: String) {
    guard lost.load(ordering: .acquiring) == 0 else { return }
    var bytes = text
    if let code = bytes.withUTF8({
      FileDescriptorIO.writeAll(STDOUT_FILENO, UnsafeRawBufferPointer($0))
    }) {
      lost.store(code, ordering: .releasing)
    }
  }

  /// Writes `text` to standard error now. A failure is dropped: there is nowhere left to say it,
  /// and the exit code still says how snm ended.
  public static func writeError(_ text: String) {
    var bytes = text
    _ = bytes.withUTF8 { FileDescriptorIO.writeAll(STDERR_FILENO, UnsafeRawBufferPointer($0)) }
  }

  /// The errno of the write to standard output that failed; nil while every byte was written.
  public static var outputFailure: Int32? {
    let code = lost.load(ordering: .acquiring)
    return code == 0 ? nil : code
  }
}
