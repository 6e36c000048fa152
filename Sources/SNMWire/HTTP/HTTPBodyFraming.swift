/// How a message's body is delimited (RFC 9112 §6.3).
public enum HTTPBodyFraming: Sendable, Hashable {
  /// No body (a request without Content-Length, a HEAD answer, 1xx/204/304).
  case none
  /// `Content-Length` bytes.
  case length(Int)
  /// `Transfer-Encoding: chunked`.
  case chunked
  /// An answer without either: the body ends when the connection does.
  case untilClose
}
