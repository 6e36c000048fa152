/// The sizes a WebSocket peer may send, checked from a frame's header before any of its payload
/// is set aside: past either limit the connection fails with 1009.
///
/// ```swift
/// var limits = WebSocketLimits.server
/// limits.maxMessageBytes = 1 << 20
/// ```
public struct WebSocketLimits: Sendable, Hashable {
  /// Largest payload of one frame.
  public var maxFrameBytes: Int
  /// Largest message, its fragments together.
  public var maxMessageBytes: Int

  public init(maxFrameBytes: Int, maxMessageBytes: Int) {
    self.maxFrameBytes = maxFrameBytes
    self.maxMessageBytes = maxMessageBytes
  }

  /// What the local project takes from a client: Realtime's `max_frame_size` of 5,000,000 bytes.
  public static let server = WebSocketLimits(maxFrameBytes: 5_000_000, maxMessageBytes: 5_000_000)

  /// What snm takes from a server: 16 MiB a message.
  public static let client = WebSocketLimits(maxFrameBytes: 16 << 20, maxMessageBytes: 16 << 20)
}
