import Foundation

/// Writing to a file descriptor the way every caller needs it: all of the buffer, across short
/// writes and interrupted calls.
public enum FileDescriptorIO {
  /// Writes all of `buffer` to `fd`, retrying short writes and `EINTR`. Returns nil when every
  /// byte was written, else the `errno` of the write that failed (`EIO` for one that wrote
  /// nothing), so each caller words the failure in its own terms. Each `write(2)` is made by
  /// `writeOnce` (a writer another thread may stop gives its own).
  public static func writeAll(
    _ fd: Int32, _ buffer: UnsafeRawBufferPointer,
    using writeOnce: (Int32, UnsafeRawPointer, Int) -> Int = { write($0, $1, $2) }
  ) -> Int32? {
    guard let base = buffer.baseAddress else { return nil }
    var offset = 0
    while offset < buffer.count {
      let written = writeOnce(fd, base + offset, buffer.count - offset)
      if written > 0 {
        offset += written
      } else if written < 0 && errno == EINTR {
        continue
      } else {
        return written < 0 ? errno : EIO
      }
    }
    return nil
  }

  /// `strerror(code)` in lower case, as snm's messages word a failed call ("no space left on
  /// device"), never its bare number.
  public static func reason(_ code: Int32) -> String {
    String(cString: strerror(code)).lowercased()
  }

  /// Writes all of `bytes` to `fd`; see `writeAll(_:_:)-UnsafeRawBufferPointer`.
  public static func writeAll(_ fd: Int32, _ bytes: some ContiguousBytes) -> Int32? {
    bytes.withUnsafeBytes { writeAll(fd, $0) }
  }
}
