/// The HTTP methods snm sends: PostgREST reads with GET/HEAD and writes with POST/PATCH/PUT/DELETE.
public enum HTTPMethod: String, Sendable, Hashable, CaseIterable {
  case get = "GET"
  case head = "HEAD"
  case post = "POST"
  case put = "PUT"
  case patch = "PATCH"
  case delete = "DELETE"
  case options = "OPTIONS"

  /// `true` for GET and HEAD, the methods that read (they take `Accept-Profile`, others `Content-Profile`).
  public var isRead: Bool { self == .get || self == .head }
  /// `true` for GET, HEAD and OPTIONS, the safe methods (RFC 9110 §9.2.1): the one rule of what
  /// a transport may send again on a new connection when the kept one it went out on closed
  /// before any of the answer (``PlainHTTPClient``, ``CurlTransport/mayResend(_:after:transfer:)``,
  /// ``CurlTransfer``), each transport reading it.
  public var maySendAgain: Bool { self == .get || self == .head || self == .options }
  /// `true` for POST, PUT, PATCH and DELETE, the methods that write: a transport never sends one
  /// twice (``TransportRequest/unansweredReason(_:)``). Every method not ``maySendAgain``.
  public var isWrite: Bool { !maySendAgain }
}
