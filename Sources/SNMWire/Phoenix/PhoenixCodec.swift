/// Reads and writes Phoenix Channels messages for one socket: its ``PhoenixVersion`` and which
/// way its messages go. Both ends use it: a server decodes `.toServer` and encodes `.toClient`,
/// a client the other way round.
///
/// ```swift
/// let server = PhoenixCodec(version: .v2)
/// let frame = try server.decode(incoming, from: .toServer)      // a WebSocketMessage
/// let out = try server.encode(.message(reply), to: .toClient)   // .text or .binary
/// ```
/// Nothing it is given crashes it: a JSON value of the wrong shape, a binary frame with lengths
/// past its end or an unknown kind byte throws ``PhoenixCodecError`` saying which.
public struct PhoenixCodec: Sendable, Hashable {
  public let version: PhoenixVersion
  /// The most JSON values a text message may hold (``JSONParser``'s cap): a message of many
  /// small values takes tens of bytes a value once parsed.
  public let maximumValues: Int

  public init(version: PhoenixVersion, maximumValues: Int = .max) {
    self.version = version
    self.maximumValues = maximumValues
  }

  /// The Phoenix frame a text or binary WebSocket message carries.
  public func decode(
    _ message: WebSocketMessage, from direction: PhoenixDirection
  ) throws(PhoenixCodecError) -> PhoenixFrame {
    switch message {
    case .text(let text): return .message(try decode(text: text))
    case .binary(let bytes):
      guard version == .v2 else { throw PhoenixCodecError("a binary frame on a 1.0.0 socket") }
      return try decode(binary: bytes, from: direction)
    case .ping, .pong, .close:
      throw PhoenixCodecError("a control frame carries no phoenix message")
    }
  }

  /// A JSON message: an object for v1, `[join_ref, ref, topic, event, payload]` for v2.
  public func decode(text: String) throws(PhoenixCodecError) -> PhoenixMessage {
    let value: JSONValue
    do {
      value = try JSONValue(parsing: text, maximumValues: maximumValues)
    } catch {
      if case .tooManyValues(let limit) = error.reason {
        throw PhoenixCodecError("a message holds more than \(limit) JSON values")
      }
      throw PhoenixCodecError("a message is not JSON: \(error)")
    }
    switch version {
    case .v1:
      guard let object = value.objectValue else {
        throw PhoenixCodecError("expected a 1.0.0 message object, got \(value.typeName)")
      }
      return PhoenixMessage(
        joinRef: try Self.ref(object["join_ref"], "join_ref"),
        ref: try Self.ref(object["ref"], "ref"),
        topic: try Self.string(object["topic"], "topic"),
        event: try Self.string(object["event"], "event"),
        payload: try Self.payload(object["payload"]))
    case .v2:
      guard let array = value.arrayValue, array.count >= 5 else {
        throw PhoenixCodecError(
          "expected a 2.0.0 message array [join_ref, ref, topic, event, payload], got \(Self.shape(value))"
        )
      }
      return PhoenixMessage(
        joinRef: try Self.ref(array[0], "join_ref"), ref: try Self.ref(array[1], "ref"),
        topic: try Self.string(array[2], "topic"), event: try Self.string(array[3], "event"),
        payload: array[4])
    }
  }

  /// The WebSocket message that carries `frame`: text for a JSON message, binary for the rest.
  ///
  /// - Throws: for a binary kind on a v1 socket, a kind that does not travel `direction`, or a
  ///   field past 255 bytes.
  public func encode(
    _ frame: PhoenixFrame, to direction: PhoenixDirection
  ) throws(PhoenixCodecError) -> WebSocketMessage {
    switch frame {
    case .message(let message): return .text(encode(message, to: direction))
    default:
      guard version == .v2 else {
        throw PhoenixCodecError("a 1.0.0 socket carries no binary frames")
      }
      return .binary(try encodeBinary(frame, to: direction))
    }
  }

  /// The JSON text of `message`. v1 writes `join_ref` only in a client's messages, as Phoenix's
  /// V1 serializer leaves it out of a server's.
  public func encode(_ message: PhoenixMessage, to direction: PhoenixDirection) -> String {
    switch version {
    case .v1:
      var object: JSONObject = [
        "topic": .string(message.topic), "event": .string(message.event),
        "payload": message.payload,
        "ref": .optional(message.ref),
      ]
      if direction == .toServer { object.append("join_ref", .optional(message.joinRef)) }
      return JSONValue.object(object).serialized()
    case .v2:
      let array: JSONValue = [
        .optional(message.joinRef), .optional(message.ref), .string(message.topic),
        .string(message.event), message.payload,
      ]
      return array.serialized()
    }
  }

  private static func ref(_ value: JSONValue?, _ name: String) throws(PhoenixCodecError) -> String?
  {
    switch value {
    case nil, .null?: return nil
    case .string(let text)?: return text
    case .number(let number)?: return number.text
    case let other?:
      throw PhoenixCodecError("\(name) must be a string or null, got \(other.typeName)")
    }
  }

  private static func string(_ value: JSONValue?, _ name: String) throws(PhoenixCodecError)
    -> String
  {
    guard let value else { throw PhoenixCodecError("a message without \(name)") }
    guard case .string(let text) = value else {
      throw PhoenixCodecError("\(name) must be a string, got \(value.typeName)")
    }
    return text
  }

  private static func payload(_ value: JSONValue?) throws(PhoenixCodecError) -> JSONValue {
    guard let value else { throw PhoenixCodecError("a message without payload") }
    return value
  }

  private static func shape(_ value: JSONValue) -> String {
    guard let array = value.arrayValue else { return value.typeName }
    return "an array of \(array.count)"
  }
}
