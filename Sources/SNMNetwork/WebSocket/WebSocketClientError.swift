import SNMWire

/// Why a WebSocket connection could not open or ended: each case says where and why, in the
/// shell's words.
public enum WebSocketClientError: Error, Sendable, Equatable, CustomStringConvertible {
  /// The URL is not `ws://` or `wss://` with a host.
  case badURL(String)
  /// No TCP connection (refused, no such host, timed out).
  case unreachable(String)
  /// The server answered the upgrade with another status; `body` is its text, control characters
  /// escaped by whoever prints it.
  case refused(status: Int, body: String)
  /// The handshake or a frame broke the protocol (the close code sent, and why).
  case protocolError(WebSocketError)
  /// The server closed the connection (its code, if it sent one, and reason).
  case closed(code: WebSocketCloseCode?, reason: String)
  /// The connection dropped without a close frame.
  case dropped
  /// No answer in time.
  case timedOut

  public var description: String {
    switch self {
    case .badURL(let url): "'\(url)' is not a ws:// or wss:// URL"
    case .unreachable(let why): "cannot connect: \(why)"
    case .refused(let status, let body):
      "the server refused the websocket with \(status)" + (body.isEmpty ? "" : ": \(body)")
    case .protocolError(let error): "the server broke the websocket protocol: \(error.message)"
    case .closed(let code, let reason):
      "the server closed the websocket"
        + (code.map { " with code \($0.rawValue)" } ?? "") + (reason.isEmpty ? "" : ": \(reason)")
    case .dropped: "the connection dropped without a close frame"
    case .timedOut: "the server did not answer in time"
    }
  }
}
