/// The v2 binary kinds (Realtime's V2 serializer): a kind byte, one length byte per field, the
/// fields, then the payload bytes to the end of the frame.
extension PhoenixCodec {
  enum Kind: UInt8 {
    case push = 0
    case reply = 1
    case broadcast = 2
    case userBroadcastPush = 3
    case userBroadcast = 4
  }

  /// A binary frame's kind and fields.
  func decode(binary bytes: [UInt8], from direction: PhoenixDirection) throws(PhoenixCodecError)
    -> PhoenixFrame
  {
    guard let first = bytes.first else { throw PhoenixCodecError("an empty binary frame") }
    guard let kind = Kind(rawValue: first) else {
      throw PhoenixCodecError("unknown binary kind \(first)")
    }
    var reader = Reader(bytes: bytes, kind: kind)
    switch (kind, direction) {
    case (.push, .toServer):
      return .binaryPush(try Self.messageWithRefs(&reader, last: "event"))
    case (.push, .toClient):
      let fields = try reader.fields(["join_ref", "topic", "event"])
      return .binaryPush(
        PhoenixBinaryMessage(
          joinRef: Self.ref(fields[0]), topic: fields[1], event: fields[2], payload: reader.rest))
    case (.reply, .toClient):
      return .binaryReply(try Self.messageWithRefs(&reader, last: "status"))
    case (.broadcast, .toClient):
      let fields = try reader.fields(["topic", "event"])
      return .binaryBroadcast(
        PhoenixBinaryMessage(topic: fields[0], event: fields[1], payload: reader.rest))
    case (.userBroadcastPush, .toServer):
      let (lengths, encoding) = try reader.lengthsAndEncoding(5)
      let fields = try reader.strings(lengths, ["join_ref", "ref", "topic", "user_event", "meta"])
      return .userBroadcast(
        PhoenixUserBroadcast(
          joinRef: Self.ref(fields[0]), ref: Self.ref(fields[1]), topic: fields[2],
          event: fields[3],
          metadata: try Self.metadata(fields[4]), encoding: encoding, payload: reader.rest))
    case (.userBroadcast, .toClient):
      let (lengths, encoding) = try reader.lengthsAndEncoding(3)
      let fields = try reader.strings(lengths, ["topic", "user_event", "meta"])
      return .userBroadcast(
        PhoenixUserBroadcast(
          topic: fields[0], event: fields[1], metadata: try Self.metadata(fields[2]),
          encoding: encoding, payload: reader.rest))
    default:
      throw PhoenixCodecError(
        "binary kind \(first) does not travel \(direction == .toServer ? "to a server" : "to a client")"
      )
    }
  }

  func encodeBinary(_ frame: PhoenixFrame, to direction: PhoenixDirection) throws(PhoenixCodecError)
    -> [UInt8]
  {
    switch (frame, direction) {
    case (.binaryPush(let push), .toServer):
      return try Self.packWithRefs(.push, push, last: "event")
    case (.binaryPush(let push), .toClient):
      return try Self.pack(
        .push, [push.joinRef ?? "", push.topic, push.event], ["join_ref", "topic", "event"],
        payload: push.payload)
    case (.binaryReply(let reply), .toClient):
      return try Self.packWithRefs(.reply, reply, last: "status")
    case (.binaryBroadcast(let broadcast), .toClient):
      return try Self.pack(
        .broadcast, [broadcast.topic, broadcast.event], ["topic", "event"],
        payload: broadcast.payload)
    case (.userBroadcast(let broadcast), .toServer):
      return try Self.pack(
        .userBroadcastPush,
        [
          broadcast.joinRef ?? "", broadcast.ref ?? "", broadcast.topic, broadcast.event,
          Self.metaText(broadcast),
        ],
        ["join_ref", "ref", "topic", "user_event", "meta"], encoding: broadcast.encoding,
        payload: broadcast.payload)
    case (.userBroadcast(let broadcast), .toClient):
      return try Self.pack(
        .userBroadcast, [broadcast.topic, broadcast.event, Self.metaText(broadcast)],
        ["topic", "user_event", "meta"], encoding: broadcast.encoding, payload: broadcast.payload)
    case (.message, _):
      throw PhoenixCodecError("a json message is sent as text")
    default:
      throw PhoenixCodecError(
        "this binary kind does not travel \(direction == .toServer ? "to a server" : "to a client")"
      )
    }
  }

  /// The layout a push to a server and a reply share: join_ref, ref, topic and `last` (the
  /// event, or the reply's status), then the payload.
  private static func messageWithRefs(_ reader: inout Reader, last: String)
    throws(PhoenixCodecError) -> PhoenixBinaryMessage
  {
    let fields = try reader.fields(["join_ref", "ref", "topic", last])
    return PhoenixBinaryMessage(
      joinRef: ref(fields[0]), ref: ref(fields[1]), topic: fields[2], event: fields[3],
      payload: reader.rest)
  }

  /// `message` in the layout of ``messageWithRefs(_:last:)``.
  private static func packWithRefs(_ kind: Kind, _ message: PhoenixBinaryMessage, last: String)
    throws(PhoenixCodecError) -> [UInt8]
  {
    try pack(
      kind, [message.joinRef ?? "", message.ref ?? "", message.topic, message.event],
      ["join_ref", "ref", "topic", last], payload: message.payload)
  }

  /// Kind byte, lengths, (encoding), fields, payload; each field at most 255 bytes.
  private static func pack(
    _ kind: Kind, _ fields: [String], _ names: [String],
    encoding: PhoenixUserBroadcast.Encoding? = nil,
    payload: [UInt8]
  ) throws(PhoenixCodecError) -> [UInt8] {
    var out: [UInt8] = [kind.rawValue]
    for (field, name) in zip(fields, names) {
      let count = field.utf8.count
      guard count <= 255 else {
        throw PhoenixCodecError(
          "\(name) of \(count) bytes does not fit a binary frame (at most 255)")
      }
      out.append(UInt8(count))
    }
    if let encoding { out.append(encoding.rawValue) }
    for field in fields { out.append(contentsOf: field.utf8) }
    out.append(contentsOf: payload)
    return out
  }

  private static func metaText(_ broadcast: PhoenixUserBroadcast) -> String {
    broadcast.metadata.map { JSONValue.object($0).serialized() } ?? ""
  }

  /// A ref field: empty is none.
  private static func ref(_ text: String) -> String? { text.isEmpty ? nil : text }

  private static func metadata(_ text: String?) throws(PhoenixCodecError) -> JSONObject? {
    guard let text, !text.isEmpty else { return nil }
    guard let value = try? JSONValue(parsing: text), let object = value.objectValue else {
      throw PhoenixCodecError("the meta of a binary broadcast is not a JSON object")
    }
    return object
  }

  /// Reads a binary frame's length bytes and fields, never past its end.
  struct Reader {
    let bytes: [UInt8]
    let kind: Kind
    var position = 1

    var rest: [UInt8] { Array(bytes[position...]) }

    mutating func fields(_ names: [String]) throws(PhoenixCodecError) -> [String] {
      let lengths = try lengths(names.count)
      return try strings(lengths, names)
    }

    mutating func lengthsAndEncoding(_ count: Int) throws(PhoenixCodecError) -> (
      [Int], PhoenixUserBroadcast.Encoding
    ) {
      let lengths = try lengths(count)
      guard position < bytes.count else { throw cutShort("the payload encoding") }
      guard let encoding = PhoenixUserBroadcast.Encoding(rawValue: bytes[position]) else {
        throw PhoenixCodecError("unknown payload encoding \(bytes[position]) (0 binary, 1 json)")
      }
      position += 1
      return (lengths, encoding)
    }

    mutating func lengths(_ count: Int) throws(PhoenixCodecError) -> [Int] {
      guard bytes.count - position >= count else { throw cutShort("the field lengths") }
      let lengths = bytes[position..<position + count].map(Int.init)
      position += count
      return lengths
    }

    /// The fields, each checked UTF-8.
    mutating func strings(_ lengths: [Int], _ names: [String]) throws(PhoenixCodecError) -> [String]
    {
      var out: [String] = []
      for (length, name) in zip(lengths, names) {
        guard bytes.count - position >= length else { throw cutShort(name) }
        let slice = bytes[position..<position + length]
        guard let text = String(validating: slice, as: UTF8.self) else {
          throw PhoenixCodecError("\(name) of binary kind \(kind.rawValue) is not valid UTF-8")
        }
        out.append(text)
        position += length
      }
      return out
    }

    private func cutShort(_ what: String) -> PhoenixCodecError {
      PhoenixCodecError("binary kind \(kind.rawValue) ends before \(what) (\(bytes.count) bytes)")
    }
  }
}
