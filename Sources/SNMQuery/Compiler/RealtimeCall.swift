import SNMSupabase
import SNMWire

/// What a Realtime statement does on the socket, with its variables filled in: the shell runs
/// it, `explain` renders it.
public struct RealtimeCall: Sendable, Equatable {
  public enum Action: Sendable, Equatable {
    /// Join `topic` (`realtime:<name>`) with `config`; live once the join is answered and, for
    /// postgres_changes, once the server says "Subscribed to PostgreSQL".
    case join(name: String, config: RealtimeChannelConfig)
    /// Leave one subscription, or every one (nil).
    case leave(name: String?)
    /// Send a broadcast on a topic (joined first when it is not).
    case broadcast(name: String, event: String, payload: JSONValue)
    /// Track this client's presence on a topic (joined first, presence on).
    case track(name: String, payload: JSONValue)
    /// Stop tracking.
    case untrack(name: String)
    /// `realtime check`: read the database where snm can (a local project), then join `name`
    /// with `config` as `listen` would, and leave.
    case check(name: String, config: RealtimeChannelConfig)
  }

  public var action: Action
  /// The supabase-swift calls that do the same.
  public var swift: [String]

  /// The Phoenix topic of a subscription name.
  public static func topic(_ name: String) -> String { "realtime:" + name }
}
