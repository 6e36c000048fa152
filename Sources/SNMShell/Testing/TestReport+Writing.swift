import Foundation
import SNMNetwork

#if canImport(Glibc)
  import Glibc
#endif

/// Writing a report file, for `snm test --report` and `snm report merge` alike.
extension TestReport {
  /// Writes `text` to the report's path: the folders above it made first (as `mkdir -p`), the
  /// file written beside its place and renamed into it (``BesideFile``: the mode the umask gives,
  /// or that of the file it replaces). Nil when it is written, else why, in the system's words:
  /// `cannot write the junit report 'build': Is a directory`.
  ///
  /// ```swift
  /// if let failure = report.write(report.kind.render(results)) { throw UsageError(failure) }
  /// ```
  func write(_ text: String) -> String? {
    guard let reason = Self.reasonNotWritten(text, to: path) else { return nil }
    return "cannot write the \(kind.rawValue) report '\(path)': \(reason)"
  }

  /// Why `text` could not be written to `path`, or nil when it was.
  private static func reasonNotWritten(_ text: String, to path: String) -> String? {
    if let reason = makeFolders((path as NSString).deletingLastPathComponent) { return reason }
    do throws(TransportFileError) {
      let file = try BesideFile(destination: path, newFileMode: nil)
      try file.write(contentsOf: Array(text.utf8))
      try file.finish()
      return nil
    } catch {
      return error.reason
    }
  }

  /// Makes `folder` and the folders above it that are missing; why one could not be, or nil.
  private static func makeFolders(_ folder: String) -> String? {
    var prefix = folder.hasPrefix("/") ? "/" : ""
    for part in folder.split(separator: "/") {
      prefix += part
      if mkdir(prefix, 0o777) != 0 && errno != EEXIST {
        return "cannot make the folder '\(prefix)': \(String(cString: strerror(errno)))"
      }
      prefix += "/"
    }
    return nil
  }
}
