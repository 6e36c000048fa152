/// The fields of binary kinds 0-2: refs, topic, an event (the status of a reply) and raw bytes.
public struct PhoenixBinaryMessage: Sendable, Hashable {
  public var joinRef: String?
  public var ref: String?
  public var topic: String
  public var event: String
  public var payload: [UInt8]
}
