/// A broadcast whose payload travels as raw bytes in a v2 binary frame: kind 3 from a client
/// (with its refs), kind 4 from a server (Realtime's `user_broadcast_push` and `user_broadcast`).
///
/// ```swift
/// let cursor = PhoenixUserBroadcast(
///   topic: "realtime:room1", event: "cursor", encoding: .json, payload: Array(#"{"x":1}"#.utf8))
/// cursor.jsonBroadcastPayload   // {"type":"broadcast","event":"cursor","payload":{"x":1}}
/// ```
public struct PhoenixUserBroadcast: Sendable, Hashable {
  /// How the payload bytes are to be read.
  public enum Encoding: UInt8, Sendable, Hashable {
    case binary = 0
    case json = 1
  }

  /// Refs of a client's push (kind 3); a server's broadcast (kind 4) has none.
  public var joinRef: String?
  public var ref: String?
  public var topic: String
  /// The user's event name (the `event` of a JSON broadcast payload).
  public var event: String
  /// The `meta` object (a message id, `replayed`), or nil for none.
  public var metadata: JSONObject?
  public var encoding: Encoding
  public var payload: [UInt8]

  /// The JSON `broadcast` payload a v1 socket gets instead,
  /// `{"type":"broadcast","event":E,"payload":P,"meta":M}` (meta only when there is one); nil
  /// for a binary payload or JSON bytes that do not parse (a v1 socket cannot carry them).
  public var jsonBroadcastPayload: JSONValue? {
    guard encoding == .json, let parsed = try? JSONValue(parsing: payload) else { return nil }
    var object: JSONObject = ["type": "broadcast", "event": .string(event), "payload": parsed]
    if let metadata { object.append("meta", .object(metadata)) }
    return .object(object)
  }
}
