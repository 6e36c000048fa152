/// Realtime's limits, at its defaults (`max_concurrent_users` 200, `max_joins_per_second` 100,
/// `max_events_per_second` 100, `max_channels_per_client` 100, `max_payload_size_in_kb` 3000,
/// presence calls 5 per channel in 30 s). The first four are the project's `[realtime]` keys of
/// config.toml, under Realtime's own names.
public struct RealtimeLimits: Sendable, Equatable {
  /// Sockets that joined a channel (Realtime's users): past it, a handshake is refused with 429
  /// `Too many connected users` and a new socket's join with `ConnectionRateLimitReached`.
  public var concurrentUsers = 200
  /// Joins a second, the project's average (``RealtimeRate``): past it, a handshake is refused
  /// with 429 and a join with `ClientJoinRateLimitReached` (and its socket closed).
  public var joinsPerSecond = 100
  /// Broadcasts sent and delivered a second, the project's average (``RealtimeRate``): past it,
  /// a channel that receives one is ended (`Too many messages per second`).
  public var eventsPerSecond = 100
  /// Channels one socket may join.
  public var channelsPerClient = 100
  /// Presence calls (track, untrack) one channel may make in `presenceWindow` seconds: one more
  /// ends the channel (`Client presence rate limit exceeded`).
  public var presenceCalls = 5
  public var presenceWindow = 30.0
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

  /// The `[realtime]` keys of config.toml the local project takes, Realtime's tenant settings.
  public static let names = [
    "max_concurrent_users", "max_joins_per_second", "max_events_per_second",
    "max_channels_per_client",
  ]

  /// Sets the limit a `[realtime]` key names (one of ``names``); false for another name.
  public mutating func set(_ name: String, _ value: Int) -> Bool {
    switch name {
    case "max_concurrent_users": concurrentUsers = value
    case "max_joins_per_second": joinsPerSecond = value
    case "max_events_per_second": eventsPerSecond = value
    case "max_channels_per_client": channelsPerClient = value
    default: return false
    }
    return true
  }
}
