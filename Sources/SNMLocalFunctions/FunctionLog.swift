import Foundation
import SNMWire
import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// The functions' log (`functions.log` in the runtime folder): every line a function prints and
/// what the runner did, each as `<UTC time> <function>: <text>`, control characters escaped.
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

  /// `text` with C0 controls (but tab) and DEL as `\u{..}`, and a trailing CR dropped.
  static func escaped(_ text: String) -> String {
    var out = ""
    out.reserveCapacity(text.utf8.count)
    var scalars = Substring(text).unicodeScalars[...]
    if scalars.last == "\r" { scalars = scalars.dropLast() }
    for scalar in scalars {
      if (scalar.value < 0x20 && scalar != "\t") || scalar.value == 0x7F {
        out += "\\u{" + String(scalar.value, radix: 16) + "}"
      } else {
        out.unicodeScalars.append(scalar)
      }
    }
    return out
  }
}
