/// Why a WebSocket connection fails: the close code to send (RFC 6455 §7.4) and a lowercase
/// message saying what the peer did.
///
/// ```swift
/// catch let error as WebSocketError { send(.close(code: error.closeCode, reason: error.message)) }
/// ```
public struct WebSocketError: Error, Sendable, Hashable, CustomStringConvertible {
  public var closeCode: WebSocketCloseCode
  public var message: String

  /// 1002 with `message`.
  public static func protocolError(_ message: String) -> WebSocketError {
    WebSocketError(closeCode: .protocolError, message: message)
  }

  public var description: String { message }
}
