/// One Phoenix Channels message in JSON: v1 writes it as an object, v2 as the array
/// `[join_ref, ref, topic, event, payload]`.
///
/// ```swift
/// let join = PhoenixMessage(
///   joinRef: "1", ref: "1", topic: "realtime:room1", event: "phx_join", payload: ["config": [:]])
/// ```
public struct PhoenixMessage: Sendable, Hashable {
  /// The ref of the join this message belongs to (nil on server pushes and v1 server messages).
  public var joinRef: String?
  /// The ref a reply echoes (nil on pushes).
  public var ref: String?
  public var topic: String
  public var event: String
  public var payload: JSONValue

  public init(joinRef: String?, ref: String?, topic: String, event: String, payload: JSONValue) {
    self.joinRef = joinRef
    self.ref = ref
    self.topic = topic
    self.event = event
    self.payload = payload
  }

  /// A `phx_reply` to `request`: `{"status": status, "response": response}` with its refs.
  public static func reply(
    to request: PhoenixMessage, status: String, response: JSONValue
  ) -> PhoenixMessage {
    PhoenixMessage(
      joinRef: request.joinRef, ref: request.ref, topic: request.topic, event: "phx_reply",
      payload: .object([.init("status", .string(status)), .init("response", response)]))
  }
}
