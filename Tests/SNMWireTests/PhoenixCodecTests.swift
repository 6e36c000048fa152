import SNMTestSupport
import Testing

@testable import SNMWire

@Suite struct PhoenixCodecTests {
  let v1 = PhoenixCodec(version: .v1)
  let v2 = PhoenixCodec(version: .v2)

  @Test func versionsFromVsn() {
    #expect(PhoenixVersion(vsn: nil) == .v1)
    #expect(PhoenixVersion(vsn: "1.0.0") == .v1)
    #expect(PhoenixVersion(vsn: "2.0.0") == .v2)
    #expect(PhoenixVersion(vsn: "2.0.3") == .v2)
    #expect(PhoenixVersion(vsn: "3.0.0") == nil)
    #expect(PhoenixVersion(vsn: "2.1.0") == nil)
    #expect(PhoenixVersion(vsn: "2.0") == nil)
    #expect(PhoenixVersion(vsn: "") == nil)
  }

  @Test func v1ObjectsBothWays() throws {
    let join = try v1.decode(
      text:
        #"{"topic":"realtime:room1","event":"phx_join","payload":{"config":{}},"ref":"1","join_ref":"1"}"#
    )
    #expect(
      join
        == PhoenixMessage(
          joinRef: "1", ref: "1", topic: "realtime:room1", event: "phx_join",
          payload: ["config": [:]]))
    // A server's v1 message has no join_ref; a client's has it.
    let reply = PhoenixMessage.reply(to: join, status: "ok", response: ["postgres_changes": []])
    #expect(
      v1.encode(reply, to: .toClient)
        == #"{"topic":"realtime:room1","event":"phx_reply","payload":{"status":"ok","response":{"postgres_changes":[]}},"ref":"1"}"#
    )
    #expect(v1.encode(join, to: .toServer).hasSuffix(#""ref":"1","join_ref":"1"}"#))
    // Refs may be numbers or absent.
    #expect(
      try v1.decode(text: #"{"topic":"phoenix","event":"heartbeat","payload":{},"ref":7}"#).ref
        == "7")
    #expect(
      try v1.decode(text: #"{"topic":"phoenix","event":"heartbeat","payload":{}}"#).ref == nil)
  }

  @Test func v2ArraysBothWays() throws {
    let text =
      #"["1","2","realtime:room1","broadcast",{"type":"broadcast","event":"e","payload":{"x":1}}]"#
    let message = try v2.decode(text: text)
    #expect(message.joinRef == "1" && message.ref == "2" && message.event == "broadcast")
    #expect(v2.encode(message, to: .toServer) == text)
    let push = PhoenixMessage(
      joinRef: nil, ref: nil, topic: "realtime:room1", event: "presence_diff", payload: [:])
    #expect(v2.encode(push, to: .toClient) == #"[null,null,"realtime:room1","presence_diff",{}]"#)
  }

  @Test func wrongShapesAreClearErrors() {
    #expect(
      throws: PhoenixCodecError(
        "expected a 2.0.0 message array [join_ref, ref, topic, event, payload], got an array of 3")
    ) {
      try v2.decode(text: #"["1","2","t"]"#)
    }
    #expect(
      throws: PhoenixCodecError(
        "expected a 2.0.0 message array [join_ref, ref, topic, event, payload], got object")
    ) {
      try v2.decode(text: #"{"topic":"t"}"#)
    }
    #expect(throws: PhoenixCodecError("expected a 1.0.0 message object, got array")) {
      try v1.decode(text: #"[null,null,"t","e",{}]"#)
    }
    #expect(throws: PhoenixCodecError("topic must be a string, got number")) {
      try v2.decode(text: #"[null,null,1,"e",{}]"#)
    }
    #expect(throws: PhoenixCodecError("ref must be a string or null, got object")) {
      try v2.decode(text: #"[null,{},"t","e",{}]"#)
    }
    #expect(throws: PhoenixCodecError("a message without event")) {
      try v1.decode(text: #"{"topic":"t","payload":{}}"#)
    }
    #expect(throws: PhoenixCodecError.self) { try v2.decode(text: "[") }
    #expect(throws: PhoenixCodecError("a binary frame on a 1.0.0 socket")) {
      try v1.decode(.binary([3]), from: .toServer)
    }
    #expect(throws: PhoenixCodecError("a 1.0.0 socket carries no binary frames")) {
      try v1.encode(
        .binaryBroadcast(PhoenixBinaryMessage(topic: "t", event: "e", payload: [])), to: .toClient)
    }
  }

  @Test func userBroadcastPushFromRealtimeJS() throws {
    // Kind 3 as realtime-js writes it: lengths, encoding 1 (json), fields, then the payload.
    var bytes: [UInt8] = [3, 1, 1, 14, 6, 0, 1]
    bytes += Array("12realtime:room1cursor".utf8) + Array(#"{"x":1}"#.utf8)
    let frame = try v2.decode(.binary(bytes), from: .toServer)
    let expected = PhoenixUserBroadcast(
      joinRef: "1", ref: "2", topic: "realtime:room1", event: "cursor", encoding: .json,
      payload: Array(#"{"x":1}"#.utf8))
    #expect(frame == .userBroadcast(expected))
    #expect(try v2.encode(frame, to: .toServer) == .binary(bytes))
    #expect(
      expected.jsonBroadcastPayload == [
        "type": "broadcast", "event": "cursor", "payload": ["x": 1],
      ])
  }

  @Test func everyKindRoundTripsItsDirection() throws {
    let meta: JSONObject = ["id": "abc"]
    let frames: [(PhoenixFrame, PhoenixDirection)] = [
      (
        .binaryPush(
          PhoenixBinaryMessage(joinRef: "1", ref: "3", topic: "t", event: "e", payload: [0, 255])),
        .toServer
      ),
      (
        .binaryPush(PhoenixBinaryMessage(joinRef: "1", topic: "t", event: "e", payload: [1])),
        .toClient
      ),
      (
        .binaryReply(
          PhoenixBinaryMessage(joinRef: "1", ref: "2", topic: "t", event: "ok", payload: [2])),
        .toClient
      ),
      (.binaryBroadcast(PhoenixBinaryMessage(topic: "t", event: "e", payload: [])), .toClient),
      (
        .userBroadcast(
          PhoenixUserBroadcast(
            topic: "t", event: "e", metadata: meta, encoding: .binary, payload: [9])), .toClient
      ),
    ]
    for (frame, direction) in frames {
      let encoded = try v2.encode(frame, to: direction)
      #expect(try v2.decode(encoded, from: direction) == frame)
    }
    #expect(throws: PhoenixCodecError("this binary kind does not travel to a server")) {
      try v2.encode(
        .binaryReply(PhoenixBinaryMessage(topic: "t", event: "ok", payload: [])), to: .toServer)
    }
  }

  @Test func hostileBinaryFramesAreClearErrors() {
    #expect(throws: PhoenixCodecError("an empty binary frame")) {
      try v2.decode(.binary([]), from: .toClient)
    }
    #expect(throws: PhoenixCodecError("unknown binary kind 9")) {
      try v2.decode(.binary([9, 0]), from: .toClient)
    }
    #expect(throws: PhoenixCodecError("binary kind 3 does not travel to a client")) {
      try v2.decode(.binary([3, 0, 0, 0, 0, 0, 1]), from: .toClient)
    }
    #expect(throws: PhoenixCodecError("binary kind 4 ends before topic (8 bytes)")) {
      try v2.decode(.binary([4, 200, 0, 0, 1, 65, 66, 67]), from: .toClient)
    }
    #expect(throws: PhoenixCodecError("binary kind 2 ends before the field lengths (2 bytes)")) {
      try v2.decode(.binary([2, 1]), from: .toClient)
    }
    #expect(throws: PhoenixCodecError("unknown payload encoding 7 (0 binary, 1 json)")) {
      try v2.decode(.binary([4, 0, 0, 0, 7]), from: .toClient)
    }
    #expect(throws: PhoenixCodecError("topic of binary kind 2 is not valid UTF-8")) {
      try v2.decode(.binary([2, 1, 0, 0xFF]), from: .toClient)
    }
    #expect(throws: PhoenixCodecError("the meta of a binary broadcast is not a JSON object")) {
      try v2.decode(.binary([4, 1, 1, 2, 1, 0x74, 0x65, 0x5B, 0x5D]), from: .toClient)
    }
    let long = String(repeating: "t", count: 256)
    #expect(
      throws: PhoenixCodecError("topic of 256 bytes does not fit a binary frame (at most 255)")
    ) {
      try v2.encode(
        .binaryBroadcast(PhoenixBinaryMessage(topic: long, event: "e", payload: [])), to: .toClient)
    }
  }

  @Test func randomBinaryNeverCrashes() {
    var generator = SeededGenerator(seed: 6455)
    for _ in 0..<5_000 {
      var bytes = (0..<Int.random(in: 0..<24, using: &generator)).map { _ in
        UInt8.random(in: 0...8, using: &generator)
      }
      if !bytes.isEmpty { bytes[0] = UInt8.random(in: 0...5, using: &generator) }
      _ = try? v2.decode(.binary(bytes), from: .toServer)
      _ = try? v2.decode(.binary(bytes), from: .toClient)
    }
  }
}
