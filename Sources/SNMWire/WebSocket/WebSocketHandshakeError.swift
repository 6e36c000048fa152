/// Why an HTTP request or answer is not a WebSocket opening handshake (RFC 6455 §4): the status
/// a server answers with (400, or 426 for a version it does not speak) or the status a client got,
/// and a lowercase message saying why.
public struct WebSocketHandshakeError: Error, Sendable, Hashable, CustomStringConvertible {
  public var status: Int
  public var message: String

  public init(status: Int, message: String) {
    self.status = status
    self.message = message
  }

  public var description: String { message }
}
