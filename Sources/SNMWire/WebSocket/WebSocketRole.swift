/// Which end of a WebSocket connection: a client masks every frame it sends and a server none
/// (RFC 6455 §5.1), and each fails a connection whose frames are masked the other way.
public enum WebSocketRole: Sendable, Hashable {
  case server
  case client
}
