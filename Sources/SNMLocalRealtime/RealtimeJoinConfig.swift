import SNMWire

/// What a `phx_join` payload asks for, read as Realtime reads it: unknown keys ignored, booleans
/// also as `"true"`/`"false"`, what does not fit its schema taken as the default (Realtime logs
/// an invalid payload and joins with defaults).
///
/// ```json
/// {"config": {"broadcast": {"self": true, "ack": true}, "presence": {"enabled": true, "key": "u1"},
///             "postgres_changes": [{"event": "*", "schema": "public", "table": "todos"}],
///             "private": false},
///  "access_token": "<jwt>"}
/// ```
struct RealtimeJoinConfig: Sendable, Equatable {
  var broadcastSelf = false
  var broadcastAck = false
  var presenceEnabled = false
  var presenceKey = ""
  var isPrivate = false
  /// The `postgres_changes` entries as sent (echoed in the reply with their ids).
  var postgresChanges: [JSONObject] = []
  /// `access_token` (or its alias `user_token`), when the join carries one.
  var accessToken: String?

  init() {}

  init(payload: JSONValue) {
    let config = payload["config"]
    broadcastSelf = Self.flag(config?["broadcast"]?["self"])
    broadcastAck = Self.flag(config?["broadcast"]?["ack"])
    presenceEnabled = Self.flag(config?["presence"]?["enabled"])
    presenceKey = config?["presence"]?["key"]?.stringValue ?? ""
    isPrivate = Self.flag(config?["private"])
    postgresChanges = config?["postgres_changes"]?.arrayValue?.compactMap(\.objectValue) ?? []
    accessToken = payload["access_token"]?.stringValue ?? payload["user_token"]?.stringValue
  }

  /// A boolean, or its text; anything else is false.
  static func flag(_ value: JSONValue?) -> Bool {
    switch value {
    case .bool(let flag)?: flag
    case .string("true")?: true
    default: false
    }
  }
}
