/// What one WebSocket message of a Phoenix socket carries: a JSON message (v1 or v2 text), or
/// one of the v2 binary kinds (the first byte of the frame).
///
/// | kind | direction | case |
/// |---|---|---|
/// | 0 push | both | ``binaryPush(_:)`` (a client's also carries its ref) |
/// | 1 reply | to client | ``binaryReply(_:)`` |
/// | 2 broadcast | to client | ``binaryBroadcast(_:)`` |
/// | 3 user broadcast push | to server | ``userBroadcast(_:)`` |
/// | 4 user broadcast | to client | ``userBroadcast(_:)`` |
public enum PhoenixFrame: Sendable, Hashable {
  case message(PhoenixMessage)
  /// Kind 0: a message whose payload is raw bytes.
  case binaryPush(PhoenixBinaryMessage)
  /// Kind 1: a reply whose response is raw bytes; the message's `event` holds the status.
  case binaryReply(PhoenixBinaryMessage)
  /// Kind 2: a broadcast of raw bytes (no refs).
  case binaryBroadcast(PhoenixBinaryMessage)
  /// Kind 3 (to server) or 4 (to client).
  case userBroadcast(PhoenixUserBroadcast)
}
