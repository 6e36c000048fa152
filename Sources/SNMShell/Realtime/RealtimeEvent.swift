import SNMQuery
import SNMWire

/// One event a subscription received, as `$event` holds it: a postgres change
/// (`{"subscription","type":"INSERT","schema","table","commit_timestamp","record","old_record",
/// "columns","errors"}`), a broadcast (`{"subscription","type":"broadcast","event","payload"}`)
/// or presence (`{"subscription","type":"presence","event":"sync|join|leave",...}`).
struct RealtimeEvent: Sendable, Equatable {
  var value: JSONValue

  /// The kind `expect event <sub> <kind>` matches: the change type, or the event's name.
  var kind: String {
    let type = value["type"]?.stringValue ?? ""
    if type == "broadcast" || type == "presence" { return value["event"]?.stringValue ?? "" }
    return type
  }

  /// What `where` reads: the record (the old record of a delete), a broadcast's payload, or the
  /// event itself.
  var fields: JSONValue {
    switch value["type"]?.stringValue {
    case "broadcast": return value["payload"] ?? .null
    case "presence": return value
    case "DELETE": return value["old_record"] ?? .null
    default: return value["record"] ?? .null
    }
  }

  /// The events a pushed message makes for the subscription `name` (presence diffs: the leaves,
  /// then the joins).
  static func events(of message: PhoenixMessage, subscription name: String) -> [RealtimeEvent] {
    let payload = message.payload
    var head: [(String, JSONValue)] = [("subscription", .string(name))]
    switch message.event {
    case "postgres_changes":
      guard let data = payload["data"]?.objectValue else { return [] }
      for member in data where member.key != "ids" { head.append((member.key, member.value)) }
      return [RealtimeEvent(value: .object(JSONObject(head)))]
    case "broadcast":
      head += [
        ("type", "broadcast"), ("event", payload["event"] ?? .null),
        ("payload", payload["payload"] ?? .null),
      ]
      if let meta = payload["meta"] { head.append(("meta", meta)) }
      return [RealtimeEvent(value: .object(JSONObject(head)))]
    case "presence_state":
      return [
        RealtimeEvent(
          value: .object(
            JSONObject(head + [("type", "presence"), ("event", "sync"), ("state", payload)])))
      ]
    case "presence_diff":
      var events: [RealtimeEvent] = []
      for (key, event) in [("leaves", "leave"), ("joins", "join")] {
        guard let members = payload[key]?.objectValue, !members.isEmpty else { continue }
        events.append(
          RealtimeEvent(
            value: .object(
              JSONObject(
                head + [("type", "presence"), ("event", .string(event)), (key, .object(members))])))
        )
      }
      return events
    default:
      return []
    }
  }

  /// One line for the prompt: JSON for `json`/`ndjson`, else `<subscription> <kind> <fields>`.
  func line(format: OutputFormat) -> String {
    switch format {
    case .json, .ndjson: return value.serialized()
    default:
      let name = value["subscription"]?.stringValue ?? ""
      return "\(name) \(kind) \(fields.serialized())"
    }
  }
}
