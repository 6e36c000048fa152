/// One whole WebSocket message, fragments joined: what ``WebSocketDecoder`` hands out and
/// ``WebSocketEncoder`` writes.
public enum WebSocketMessage: Sendable, Hashable {
  /// A text message (checked UTF-8).
  case text(String)
  case binary([UInt8])
  case ping([UInt8])
  case pong([UInt8])
  /// A close frame: its code (nil when it had none: 1005) and reason.
  case close(code: WebSocketCloseCode?, reason: String)
}
