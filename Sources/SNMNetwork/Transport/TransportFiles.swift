import Foundation
import SNMWire

#if canImport(Glibc)
  import Glibc
#endif

/// A request body read from a file as it is sent (``TransportRequest/bodyFile``): its
/// descriptor and its size, which is the `Content-Length`.
///
/// ```swift
/// let file = try RequestBodyFile(path: "bori.jpg", url: url)
/// file.length   // 48213
/// ```
/// Throws ``TransportFileError`` (which file, what failed, why) when it cannot be opened.
final class RequestBodyFile: Sendable {
  let path: String
  let fd: Int32
  let length: Int64

  init(path: String) throws(TransportFileError) {
    // Without waiting: open(2) of a FIFO nobody writes waits forever (``RegularFile``).
    switch RegularFile.open(path) {
    case .success(let file):
      self.fd = file.fd
      self.length = file.size
    case .failure(let refusal):
      throw TransportFileError(path: path, call: "open", reason: refusal.reason)
    }
    self.path = path
  }

  deinit { Glibc.close(fd) }

  /// Up to `buffer.count` bytes from `offset` (without moving the descriptor's position); 0 at
  /// the end.
  func read(into buffer: UnsafeMutableRawBufferPointer, at offset: Int64) -> Int {
    while true {
      let count = pread(fd, buffer.baseAddress, buffer.count, off_t(offset))
      if count < 0 && errno == EINTR { continue }
      return count
    }
  }
}

/// A local file a transfer could not read or write: which, what failed and why (errno's words).
public struct TransportFileError: Error, Sendable, Hashable, CustomStringConvertible {
  public let path: String
  public let call: String
  public let reason: String

  init(path: String, call: String, reason: String? = nil) {
    self.path = path
    self.call = call
    self.reason = reason ?? String(cString: strerror(errno))
  }

  /// `cannot write 'out.jpg': No space left on device`.
  public var description: String { "cannot \(call) '\(path)': \(reason)" }
}
