import SNMWire

/// One channel a socket joined: its topic and join ref, what its `phx_join` config asked for,
/// and who it runs as (the join's token, else the connection's key).
package struct RealtimeChannel: Sendable {
  var topic: String
  var joinRef: String?
  var config: RealtimeJoinConfig
  /// The role and claims the channel's token carries.
  var claims: JSONValue
  /// May send on a private channel (its INSERT policy on `realtime.messages` passed); always on
  /// a public one.
  var canWrite: Bool
  /// The presence key this channel tracks under.
  var presenceKey: String
  /// Which expiry check is the channel's (`RealtimeChannels.endAtExpiry`): earlier ones find
  /// another number and do nothing.
  var expiryCheck = 0
  /// Presence calls in the current window, and when it ends (monotonic seconds).
  var presenceCalls = 0
  var presenceWindowEnd: Double?

  var role: String { claims["role"]?.stringValue ?? "anon" }

  /// The hub's key for the topic: private and public channels of one name are apart, as in
  /// Realtime.
  var hubKey: String { RealtimeChannel.hubKey(topic, isPrivate: config.isPrivate) }

  package static func hubKey(_ topic: String, isPrivate: Bool) -> String {
    (isPrivate ? "private|" : "public|") + topic
  }
}
