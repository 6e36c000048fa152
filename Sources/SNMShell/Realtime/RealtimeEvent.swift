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

  /// About how many bytes the event holds in memory: each value's slot (32), a string's bytes
  /// past the 15 kept inline, an array's or object's storage header (32) and an object's keys
  /// (16 a slot, and their bytes past 15). Walked without recursion (a server's value may nest
  /// deep); what the session's byte budget for unread events counts.
  var footprint: Int {
    var total = 32
    // Only arrays and objects wait here, so a flat array of millions is not copied.
    var pending: [JSONValue] = []
    func count(_ item: JSONValue) {
      switch item {
      case .string(let text):
        let bytes = text.utf8.count
        if bytes > 15 { total += bytes }
      case .array, .object:
        total += 32
        pending.append(item)
      default: break
      }
    }
    count(value)
    while let item = pending.popLast() {
      switch item {
      case .array(let items):
        total += 32 * items.count
        for child in items { count(child) }
      case .object(let members):
        for key in members.keys {
          let bytes = key.utf8.count
          total += 48 + (bytes > 15 ? bytes : 0)
        }
        for child in members.values { count(child) }
      default: break
      }
    }
    return total
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

  /// ``line(format:)`` as printed: JSON (json, ndjson) with its hidden characters as JSON's
  /// escapes at a `terminal` (``VisibleText/json(_:)``, the same value) and as they are to a pipe
  /// (`snm listen --json | jq`); the other line with them escaped (``VisibleText``) everywhere.
  func shownLine(format: OutputFormat, terminal: Bool) -> String {
    let line = line(format: format)
    switch format {
    case .json, .ndjson: return terminal ? VisibleText.json(line) : line
    default: return VisibleText.escaped(line)
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
