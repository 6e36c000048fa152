import SNMSupabase
import SNMWire

extension RequestExplainer {
  /// A Realtime statement's messages on the socket (Phoenix v2 arrays), ending with a newline:
  /// the socket's URL (the key left out), each message, when the statement returns, and the
  /// supabase-swift calls. The access token is written `$TOKEN`.
  public static func render(_ call: RealtimeCall, base: String, format: ExplainFormat) -> String {
    let url = RealtimeEndpoint.socketURL(projectURL: base, apikey: nil)
    let messages = messages(call)
    switch format {
    case .json:
      var fields: [(String, JSONValue)] = [
        ("socket", .string(url)),
        ("messages", .array(messages)),
        ("live", .string(live(call))),
        ("swift", .string(call.swift.joined(separator: "\n"))),
      ]
      if case .check = call.action {
        fields.insert(("database", .array(database(call).map { .string($0) })), at: 0)
      }
      return JSONValue.object(JSONObject(fields)).serialized() + "\n"
    case .curl:
      let keyed = RealtimeEndpoint.socketURL(projectURL: base, apikey: "$SUPABASE_ANON_KEY")
      return messages.map { message in
        "echo " + ShellWord.quoted(message.serialized()) + " | websocat -n1 " + "\"" + keyed
          + "\"\n"
      }.joined()
    case .text:
      var lines = [heading(call)]
      if case .check = call.action { appendSection("database", database(call), to: &lines) }
      appendSection("socket", [url], to: &lines)
      appendSection("messages", messages.map { $0.serialized() }, to: &lines)
      appendSection("live", [live(call)], to: &lines)
      appendSection("with", ["the session's access token (and the project's API key)"], to: &lines)
      if !call.swift.isEmpty { appendSection("swift", call.swift, to: &lines) }
      return lines.joined(separator: "\n") + "\n"
    }
  }

  static func heading(_ call: RealtimeCall) -> String {
    switch call.action {
    case .join(let name, _): "JOIN " + RealtimeCall.topic(name)
    case .leave(let name): "LEAVE " + (name.map(RealtimeCall.topic) ?? "every channel")
    case .broadcast(let name, _, _): "BROADCAST " + RealtimeCall.topic(name)
    case .track(let name, _): "TRACK " + RealtimeCall.topic(name)
    case .untrack(let name): "UNTRACK " + RealtimeCall.topic(name)
    case .check(let name, _): "CHECK " + RealtimeCall.topic(name)
    }
  }

  /// What `realtime check` reads in the database, and when it can.
  static func database(_ call: RealtimeCall) -> [String] {
    guard case .check(let name, let config) = call.action else { return [] }
    let only = "(a local project only; elsewhere the report says it was not checked)"
    if !config.postgresChanges.isEmpty {
      let parts = name.split(separator: ".", maxSplits: 1).map(String.init)
      let qualified = parts.map { "\"" + $0.replacingOccurrences(of: "\"", with: "\"\"") + "\"" }
        .joined(separator: ".")
      return [only, "as the superuser:"]
        + RealtimeCheckQueries.table.split(separator: "\n").map { "  " + $0 }
        + ["  " + RealtimeCheckQueries.count(qualified)]
        + [
          "as this user's role and claims, in a transaction rolled back:",
          "  " + RealtimeCheckQueries.count(qualified),
        ]
    }
    guard config.isPrivate else {
      return ["(none: a public channel has no policies; the join alone is tried)"]
    }
    return [only, RealtimeCheckQueries.channelProbe]
  }

  /// When the statement returns.
  static func live(_ call: RealtimeCall) -> String {
    switch call.action {
    case .join(_, let config) where !config.postgresChanges.isEmpty:
      "when the server pushes system \"Subscribed to PostgreSQL\" (after the join's ok)"
    case .join: "when the join is answered ok"
    case .leave: "when the leave is answered"
    case .check(_, let config) where !config.postgresChanges.isEmpty:
      "after the report: the join answered and system \"Subscribed to PostgreSQL\" (or why "
        + "not), then the leave"
    case .check: "after the report: the join answered (or why not), then the leave"
    case .broadcast: "when the server acknowledges the broadcast"
    case .track, .untrack: "when the server answers the presence message"
    }
  }

  /// The messages sent, as Phoenix v2 arrays `[join_ref, ref, topic, event, payload]`.
  static func messages(_ call: RealtimeCall) -> [JSONValue] {
    func message(_ name: String, _ ref: String, _ event: String, _ payload: JSONValue)
      -> JSONValue
    {
      ["1", .string(ref), .string(RealtimeCall.topic(name)), .string(event), payload]
    }
    func join(_ name: String, _ config: RealtimeChannelConfig) -> JSONValue {
      message(name, "1", "phx_join", config.joinPayload(accessToken: "$TOKEN"))
    }
    switch call.action {
    case .join(let name, let config):
      return [join(name, config)]
    case .leave(let name):
      return [message(name ?? "<each>", "2", "phx_leave", [:])]
    case .broadcast(let name, let event, let payload):
      return [
        join(name, RealtimeChannelConfig()),
        message(
          name, "2", "broadcast",
          ["type": "broadcast", "event": .string(event), "payload": payload]),
      ]
    case .track(let name, let payload):
      return [
        join(name, RealtimeChannelConfig(presence: true)),
        message(
          name, "2", "presence", ["type": "presence", "event": "track", "payload": payload]),
      ]
    case .untrack(let name):
      return [message(name, "2", "presence", ["type": "presence", "event": "untrack"])]
    case .check(let name, let config):
      return [join(name, config), message(name, "2", "phx_leave", [:])]
    }
  }
}
