import SNMWire

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
