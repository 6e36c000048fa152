/// Realtime's limits per client, at its defaults (`max_channels_per_client` 100,
/// `max_payload_size_in_kb` 3000).
public struct RealtimeLimits: Sendable, Equatable {
  /// Channels one socket may join.
  public var channelsPerClient = 100
  /// Largest broadcast payload.
  public var maxPayloadBytes = 3_000 * 1024

  public init() {}
}
