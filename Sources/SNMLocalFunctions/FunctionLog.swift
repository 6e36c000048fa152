import Foundation
import SNMWire
import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// The functions' log (`functions.log` in the runtime folder): every line a function prints and
/// what the runner did, each as `<UTC time> <function>: <text>`, hidden characters escaped (tabs kept).
///
/// ```swift
/// log.write("hello", "Listening")   // 2026-12-04T15:40:02Z hello: Listening
/// ```
/// `snm local logs functions` prints it.
package final class FunctionLog: Sendable {
  let fd: Int32
  let lock = Mutex(())

  /// Opens `path` for appending (nil when it cannot be opened: lines are then dropped).
  package init?(path: String) {
    let fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o600)
    guard fd >= 0 else { return nil }
    self.fd = fd
  }

  deinit { close(fd) }

  package func write(_ name: String, _ text: String) {
    var seconds = time(nil)
    var parts = tm()
    gmtime_r(&seconds, &parts)
    let stamp = String(
      format: "%04d-%02d-%02dT%02d:%02d:%02dZ", Int(parts.tm_year) + 1900, Int(parts.tm_mon) + 1,
      Int(parts.tm_mday), Int(parts.tm_hour), Int(parts.tm_min), Int(parts.tm_sec))
    let line = "\(stamp) \(name): \(Self.escaped(text))\n"
    lock.withLock { _ in _ = FileDescriptorIO.writeAll(fd, Array(line.utf8)) }
  }

  /// `text` as a log line holds it: a trailing CR dropped, its tabs kept, every other character
  /// a terminal must not get raw (SNMWire's one walk, `VisibleTextLine`: controls, a line feed,
  /// U+202E, tag characters) written as `\u{1B}`, so a line of the file is one line printed.
  static func escaped(_ text: String) -> String {
    var line = Substring(text)
    if line.unicodeScalars.last == "\r" { line = Substring(line.unicodeScalars.dropLast()) }
    return VisibleTextLine.escaped(String(line), keepingLines: false, tabs: true)
  }
}
