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
  /// `true` for POST, PUT, PATCH and DELETE, the methods that write: a transport never sends one
  /// twice (``TransportRequest/unansweredWriteReason``).
  public var isWrite: Bool { self == .post || self == .put || self == .patch || self == .delete }
}
