/// The fields of binary kinds 0-2: refs, topic, an event (the status of a reply) and raw bytes.
public struct PhoenixBinaryMessage: Sendable, Hashable {
  public var joinRef: String?
  public var ref: String?
  public var topic: String
  public var event: String
  public var payload: [UInt8]

  public init(
    joinRef: String? = nil, ref: String? = nil, topic: String, event: String, payload: [UInt8]
  ) {
    self.joinRef = joinRef
    self.ref = ref
    self.topic = topic
    self.event = event
    self.payload = payload
  }
}
