/// Realtime's limits per client, at its defaults (`max_channels_per_client` 100,
/// `max_payload_size_in_kb` 3000).
public struct RealtimeLimits: Sendable, Equatable {
  /// Channels one socket may join.
  public var channelsPerClient = 100
  /// Largest broadcast payload.
  public var maxPayloadBytes = 3_000 * 1024
  /// The most all sockets together may leave unsent (slow readers' outboxes): past it, a socket
  /// that cannot take a message at once is closed, so many readers that never read cannot hold
  /// more than this of the gateway's memory (each may hold 32 MiB at most).
  public var unsentBytes = 256 << 20
  /// The most every topic's presence may hold together (the tracked payloads, serialized): past
  /// it a track is refused, so sockets tracking large payloads on many channels cannot take
  /// the gateway's memory.
  public var presenceBytes = 64 << 20

  public init() {}
}
