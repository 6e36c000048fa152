import SNMWire
import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// What the server does with a request's body once its head is read: buffer it whole (most
/// requests), stream it into a sink as it arrives (an upload), or answer at once without reading
/// it (a refused upload: the connection then closes).
///
/// ```swift
/// let server = HTTPServer(port: 0, handler: router.handle, bodyPlanner: router.bodyPlan)
/// func bodyPlan(_ head: HTTPRequest) -> HTTPBodyPlan {
///   head.path.hasPrefix("/upload/") ? .stream(UploadSink()) : .buffer
/// }
/// ```
public enum HTTPBodyPlan {
  case buffer
  case stream(any HTTPBodySink)
  case answer(HTTPResponse)
}

/// Receives a streamed request body a piece at a time, on the connection's thread, then answers
/// the request. It ends exactly once: by answering from `receive` (it has cleaned up), by
/// `finish`, or by `abandon`. A sink belongs to the one connection that asked for it, and is
/// used on its thread only.
public protocol HTTPBodySink: AnyObject {
  /// More body bytes (chunked coding removed). A response stops the upload: it is sent and the
  /// connection closes without reading the rest.
  func receive(_ bytes: UnsafeRawBufferPointer) -> HTTPResponse?
  /// The body ended: the answer to `request` (its head; `body` empty).
  func finish(_ request: HTTPRequest) -> HTTPResponse
  /// The connection ended (or failed) before the body did: drop what was received.
  func abandon()
}

/// A file a response's body is sent from (`sendfile`, never read into memory), or only its
/// length for an answer to HEAD. The descriptor is closed when the body is released.
///
/// ```swift
/// var response = HTTPResponse(status: 200, headers: headers)
/// response.bodyFile = HTTPFileBody(fd: fd, offset: 0, length: size)
/// ```
public final class HTTPFileBody: Sendable, Equatable {
  /// The open file, or nil when only `length` is announced (HEAD).
  public let fd: Int32?
  public let offset: Int64
  public let length: Int64

  public init(fd: Int32?, offset: Int64, length: Int64) {
    self.fd = fd
    self.offset = offset
    self.length = length
  }

  deinit {
    if let fd { close(fd) }
  }

  public static func == (lhs: HTTPFileBody, rhs: HTTPFileBody) -> Bool { lhs === rhs }
}

/// The rest of a response body, produced on the worker while it is sent: the producer calls
/// `write` with each piece (false: the client is gone, stop) and returns whether the body ended
/// whole. Exactly one of `produce` and `abandon` runs (abandon when the body is never sent: a
/// HEAD, a client gone before the head went out, or the response dropped), so whatever the
/// producer holds (a database connection) is always given back.
///
/// ```swift
/// response.bodyStream = HTTPStreamedBody(
///   produce: { write in rows.allSatisfy { row in row.withUnsafeBytes(write) } },
///   abandon: { pool.checkIn(connection) })
/// ```
public final class HTTPStreamedBody: Sendable, Equatable {
  public typealias Producer = @Sendable (_ write: (UnsafeRawBufferPointer) -> Bool) -> Bool
  let parts: Mutex<(produce: Producer, abandon: @Sendable () -> Void)?>

  public init(produce: @escaping Producer, abandon: @escaping @Sendable () -> Void) {
    parts = Mutex((produce, abandon))
  }

  /// Runs the producer (once); false when the body did not end whole.
  func produce(_ write: (UnsafeRawBufferPointer) -> Bool) -> Bool {
    guard
      let taken = parts.withLock({ parts in
        defer { parts = nil }; return parts
      })
    else {
      return false
    }
    return taken.produce(write)
  }

  /// Releases what the producer holds without producing.
  func abandon() {
    parts.withLock({ parts in
      defer { parts = nil }; return parts
    })?.abandon()
  }

  deinit { abandon() }

  public static func == (lhs: HTTPStreamedBody, rhs: HTTPStreamedBody) -> Bool { lhs === rhs }
}
