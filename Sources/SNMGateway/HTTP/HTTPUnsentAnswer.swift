import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// The rest of an answer the client did not take at once (its socket buffer was full): the event
/// loop sends it as the client reads, so a worker never waits on a slow reader.
///
/// ```swift
/// var rest = HTTPUnsentAnswer(bytes: head, file: response.bodyFile, keepAlive: true)
/// switch rest.send(on: socket) { case .done: ...; case .blocked: hand it to the loop; case .failed: close }
/// ```
struct HTTPUnsentAnswer: Sendable {
  enum Progress { case done, blocked, failed }

  /// Bytes to send (the head, and the body when it is in memory) and how many went.
  var bytes: [UInt8]
  var offset = 0
  /// A body sent from a file after `bytes` (`sendfile`), from `fileOffset` to `fileEnd`.
  let file: HTTPFileBody?
  var fileOffset: Int64
  let fileEnd: Int64
  /// Whether the connection reads the client's next request once all is sent (else it closes).
  let keepAlive: Bool
  /// The memory held for a streamed answer's rest (``HTTPHeldAnswers``), given back with it.
  var reservation: HTTPHeldAnswers.Reservation?

  init(bytes: [UInt8], file: HTTPFileBody?, keepAlive: Bool) {
    self.bytes = bytes
    self.file = file
    fileOffset = file?.offset ?? 0
    fileEnd = (file?.offset ?? 0) + (file?.length ?? 0)
    self.keepAlive = keepAlive
  }

  /// Bytes in `bytes` not sent yet.
  var pending: Int { bytes.count - offset }

  /// Adds `more` after what is still to send (the sent part is dropped first once it is most of
  /// the buffer, so the buffer holds about what is unsent).
  mutating func append(_ more: [UInt8]) {
    if offset > 0 && offset >= bytes.count / 2 {
      bytes.removeFirst(offset)
      offset = 0
    }
    bytes.append(contentsOf: more)
  }

  /// Sends what the socket takes without waiting: `.done` when all went, `.blocked` when the
  /// client must read first, `.failed` when it is gone (or the file ended early).
  mutating func send(on socket: Int32) -> Progress {
    while offset < bytes.count {
      let sent = bytes.withUnsafeBytes { buffer -> Int in
        guard let base = buffer.baseAddress else { return 0 }
        return Glibc.send(socket, base + offset, buffer.count - offset, Int32(Glibc.MSG_NOSIGNAL))
      }
      if sent > 0 {
        offset += sent
      } else if let stop = Self.stop(after: sent) {
        return stop
      }
    }
    guard let file, let fd = file.fd else { return .done }
    while fileOffset < fileEnd {
      var position = off_t(fileOffset)
      let sent = sendfile(socket, fd, &position, Int(min(fileEnd - fileOffset, 1 << 30)))
      if sent > 0 {
        fileOffset = Int64(position)
      } else if let stop = Self.stop(after: sent) {
        return stop
      }
    }
    return .done
  }

  /// What a send that moved no byte means, by `errno`: nil to try again (`EINTR`), `.blocked`
  /// when the client must read first, else `.failed`.
  private static func stop(after sent: Int) -> Progress? {
    if sent < 0 && errno == EINTR { return nil }
    if sent < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) { return .blocked }
    return .failed
  }
}
