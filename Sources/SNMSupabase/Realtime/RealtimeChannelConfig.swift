import SNMWire

/// What a channel asks for when it joins: postgres_changes bindings, broadcast and presence, and
/// whether it is private. Its ``joinPayload(accessToken:)`` is the `phx_join` payload Realtime
/// reads (ref §1.3).
///
/// ```swift
/// let config = RealtimeChannelConfig(
///   postgresChanges: [.init(event: "INSERT", schema: "public", table: "todos", filter: "id=eq.1")])
/// config.joinPayload(accessToken: token).serialized()
/// // {"config":{"broadcast":{"self":true,"ack":true},"presence":{"enabled":false,"key":""},
/// //  "postgres_changes":[{"event":"INSERT","schema":"public","table":"todos","filter":"id=eq.1"}],
/// //  "private":false},"access_token":"..."}
/// ```
public struct RealtimeChannelConfig: Sendable, Equatable {
  /// One postgres_changes binding: the server answers with an id for each, in this order.
  public struct PostgresChange: Sendable, Equatable {
    public var event: String
    public var schema: String
    public var table: String
    public var filter: String?

    public init(event: String, schema: String, table: String, filter: String? = nil) {
      self.event = event
      self.schema = schema
      self.table = table
      self.filter = filter
    }

    /// The binding as the join sends it (and the reply echoes it).
    public var json: JSONValue {
      var members: [(String, JSONValue)] = [
        ("event", .string(event)), ("schema", .string(schema)), ("table", .string(table)),
      ]
      if let filter { members.append(("filter", .string(filter))) }
      return .object(JSONObject(members))
    }
  }

  public var postgresChanges: [PostgresChange]
  /// Broadcasts this client sends come back to it (`self`), and each is acknowledged (`ack`).
  public var broadcastSelf: Bool
  public var broadcastAck: Bool
  /// Presence is on (a `presence_state` follows the join).
  public var presence: Bool
  /// Authorised by RLS on `realtime.messages`.
  public var isPrivate: Bool

  public init(
    postgresChanges: [PostgresChange] = [], broadcastSelf: Bool = true, broadcastAck: Bool = true,
    presence: Bool = false, isPrivate: Bool = false
  ) {
    self.postgresChanges = postgresChanges
    self.broadcastSelf = broadcastSelf
    self.broadcastAck = broadcastAck
    self.presence = presence
    self.isPrivate = isPrivate
  }

  /// The `phx_join` payload; `accessToken` nil leaves it out (the socket's key speaks).
  public func joinPayload(accessToken: String?) -> JSONValue {
    let config: JSONValue = [
      "broadcast": ["self": .bool(broadcastSelf), "ack": .bool(broadcastAck)],
      "presence": ["enabled": .bool(presence), "key": ""],
      "postgres_changes": .array(postgresChanges.map(\.json)),
      "private": .bool(isPrivate),
    ]
    var members: [(String, JSONValue)] = [("config", config)]
    if let accessToken { members.append(("access_token", .string(accessToken))) }
    return .object(JSONObject(members))
  }
}
