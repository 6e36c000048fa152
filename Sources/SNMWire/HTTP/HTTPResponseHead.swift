/// The status line and header fields of one answer, before its body.
///
/// ```swift
/// // HTTP/1.1 201 Created
/// head.status          // 201
/// head.headers["Content-Range"]
/// head.keepAlive       // true unless the server said Connection: close (or spoke HTTP/1.0)
/// ```
public struct HTTPResponseHead: Sendable, Hashable {
  public var status: Int
  /// The reason phrase as sent (may be empty).
  public var reason: String
  /// 0 for HTTP/1.0, 1 for HTTP/1.1.
  public var minorVersion: Int
  public var headers: HTTPHeaders
  /// How the body is framed, as the decoder read it.
  public var framing: HTTPBodyFraming

  public init(
    status: Int, reason: String? = nil, minorVersion: Int = 1, headers: HTTPHeaders = HTTPHeaders(),
    framing: HTTPBodyFraming = .none
  ) {
    self.status = status
    self.reason = reason ?? HTTPStatus.reason(status)
    self.minorVersion = minorVersion
    self.headers = headers
    self.framing = framing
  }

  /// Whether the connection may carry another request after this answer (an answer whose body
  /// ends with the connection never leaves it usable).
  public var keepAlive: Bool {
    framing != .untilClose
      && HTTPConnectionTokens(headers).keepAlive(minorVersion: minorVersion)
  }
}
