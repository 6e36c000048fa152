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
  /// `true` for POST, PUT, PATCH and DELETE, the methods that may write; GET, HEAD and OPTIONS
  /// are the safe ones (RFC 9110 §9.2.1). What a request does when its maker does not say
  /// (``Endpoint/Effect/init(sending:)``): whether a transport sends it again is what it does
  /// (``TransportRequest/maySendAgain``), not its method.
  public var isWrite: Bool { self != .get && self != .head && self != .options }
}
