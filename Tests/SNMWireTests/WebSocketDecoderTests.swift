import SNMTestSupport
import Testing

@testable import SNMWire

/// What a server reading `bytes` (in pieces of `piece` bytes) gets: each message, then the
/// failure with its close code.
private func read(
  _ bytes: [UInt8], role: WebSocketRole = .server, limits: WebSocketLimits = .server,
  piece: Int = 1 << 30
) -> [String] {
  var decoder = WebSocketDecoder(role: role, limits: limits)
  var seen: [String] = []
  var offset = 0
  do {
    while offset < bytes.count {
      decoder.append(contentsOf: bytes[offset..<min(bytes.count, offset + piece)])
      offset += piece
      while let message = try decoder.next() {
        switch message {
        case .text(let text): seen.append("text \(text)")
        case .binary(let data): seen.append("binary \(data)")
        case .ping(let data): seen.append("ping \(data)")
        case .pong(let data): seen.append("pong \(data)")
        case .close(let code, let reason):
          seen.append("close \(code.map(String.init(describing:)) ?? "none") \(reason)")
        }
      }
    }
  } catch {
    return seen + ["fail \(error.closeCode): \(error.message)"]
  }
  return seen
}

private let fixedKey: @Sendable () -> [UInt8] = { [0x37, 0xFA, 0x21, 0x3D] }
private let client = WebSocketEncoder(role: .client, maskingKey: fixedKey)

@Suite struct WebSocketDecoderTests {
  @Test func readsRFC6455Examples() {
    // §5.7: a masked "Hello" from a client, an unmasked one from a server.
    #expect(
      read([0x81, 0x85, 0x37, 0xFA, 0x21, 0x3D, 0x7F, 0x9F, 0x4D, 0x51, 0x58]) == ["text Hello"])
    #expect(read([0x81, 0x05, 0x48, 0x65, 0x6C, 0x6C, 0x6F], role: .client) == ["text Hello"])
    // §5.7: a fragmented unmasked text "Hel" + "lo".
    #expect(
      read([0x01, 0x03, 0x48, 0x65, 0x6C, 0x80, 0x02, 0x6C, 0x6F], role: .client) == ["text Hello"])
  }

  @Test func encoderMatchesRFC6455Example() {
    #expect(
      client.encode(.text("Hello")) == [
        0x81, 0x85, 0x37, 0xFA, 0x21, 0x3D, 0x7F, 0x9F, 0x4D, 0x51, 0x58,
      ])
    #expect(
      WebSocketEncoder(role: .server).encode(.text("Hello")) == [
        0x81, 0x05, 0x48, 0x65, 0x6C, 0x6C, 0x6F,
      ])
  }

  @Test func sameMessagesWhateverPiecesTheBytesComeIn() {
    let text = String(repeating: "é√x", count: 30_000)
    var bytes = client.encode(.ping([1, 2]))
    bytes += WebSocketEncoder(role: .client, fragmentBytes: 7_000, maskingKey: fixedKey).encode(
      .text(text))
    bytes += client.encode(.binary(Array(0..<200)))
    bytes += client.encode(.close(code: .normal, reason: "bye"))
    let whole = read(bytes)
    #expect(whole == ["ping [1, 2]", "text \(text)", "binary \(Array(0..<200))", "close 1000 bye"])
    for piece in [1, 2, 3, 125, 126, 4096] { #expect(read(bytes, piece: piece) == whole) }
  }

  @Test func lengthsOfEveryWidthRoundTrip() {
    for count in [0, 125, 126, 127, 65_535, 65_536, 200_000] {
      let payload = (0..<count).map { UInt8(truncatingIfNeeded: $0) }
      #expect(read(client.encode(.binary(payload))) == ["binary \(payload)"])
    }
  }

  @Test func controlFramesBetweenFragments() {
    let split = WebSocketEncoder(role: .client, fragmentBytes: 2, maskingKey: fixedKey)
    var bytes = split.frame(.text, Array("ab".utf8), fin: false)
    bytes += split.frame(.ping, [9], fin: true)
    bytes += split.frame(.continuation, Array("cd".utf8), fin: true)
    #expect(read(bytes) == ["ping [9]", "text abcd"])
  }

  @Test func refusesWhatTheProtocolForbids() {
    let server = WebSocketEncoder(role: .server)
    #expect(read(server.encode(.text("x"))) == ["fail 1002: a client frame is not masked"])
    #expect(
      read(client.encode(.text("x")), role: .client) == ["fail 1002: a server frame is masked"])
    #expect(
      read([0xC1, 0x80, 0, 0, 0, 0]) == [
        "fail 1002: reserved bits set without an extension that defines them"
      ])
    #expect(read([0x83, 0x80, 0, 0, 0, 0]) == ["fail 1002: reserved opcode 0x3"])
    #expect(read([0x8F, 0x80, 0, 0, 0, 0]) == ["fail 1002: reserved opcode 0xf"])
    #expect(
      read(client.frame(.ping, [1], fin: false)) == ["fail 1002: a control frame is fragmented"])
    #expect(
      read([0x89, 0xFE, 0x00, 0x7E]) == ["fail 1002: a control frame is longer than 125 bytes"])
    #expect(
      read(client.frame(.continuation, [1], fin: true)) == [
        "fail 1002: a continuation frame without a message to continue"
      ])
    #expect(
      read(client.frame(.text, [0x61], fin: false) + client.frame(.text, [0x62], fin: true))
        == ["fail 1002: a new message began before the fragmented one ended"])
    #expect(
      read([0x82, 0xFE, 0x00, 0x05, 0, 0, 0, 0, 1, 2, 3, 4, 5]) == [
        "fail 1002: a length not in its shortest form"
      ])
    #expect(
      read([0x82, 0xFF, 0, 0, 0, 0, 0, 0, 0x01, 0x00, 0, 0, 0, 0]) == [
        "fail 1002: a length not in its shortest form"
      ])
  }

  @Test func hugeLengthsFailBeforeAnyPayloadIsWaitedFor() {
    // 2^63-1 and 2^63: the top bit is refused, the rest is over the limit, from 10 header bytes alone.
    #expect(
      read([0x82, 0xFF, 0x7F, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF])
        == ["fail 1009: a frame of 9223372036854775807 bytes is over the limit of 5000000 bytes"])
    #expect(
      read([0x82, 0xFF, 0x80, 0, 0, 0, 0, 0, 0, 0]) == [
        "fail 1002: a frame length with its top bit set"
      ])
    let small = WebSocketLimits(maxFrameBytes: 100, maxMessageBytes: 150)
    #expect(
      read([0x82, 0xFE, 0x01, 0x00], limits: small) == [
        "fail 1009: a frame of 256 bytes is over the limit of 100 bytes"
      ])
    let fragments = WebSocketEncoder(role: .client, fragmentBytes: 100, maskingKey: fixedKey)
    #expect(
      read(fragments.encode(.binary([UInt8](repeating: 1, count: 160))), limits: small)
        == ["fail 1009: a message of 160 bytes is over the limit of 150 bytes"])
  }

  @Test func textMustBeUTF8AcrossFragments() {
    #expect(
      read(client.frame(.text, [0xC3, 0x28], fin: true)) == [
        "fail 1007: a text message is not valid UTF-8"
      ])
    #expect(
      read(client.frame(.text, [0xED, 0xA0, 0x80], fin: true)) == [
        "fail 1007: a text message is not valid UTF-8"
      ])
    #expect(
      read(client.frame(.text, [0xC0, 0xAF], fin: true)) == [
        "fail 1007: a text message is not valid UTF-8"
      ])
    // "é" split between two fragments is fine; binary is not checked.
    #expect(
      read(client.frame(.text, [0xC3], fin: false) + client.frame(.continuation, [0xA9], fin: true))
        == ["text é"])
    #expect(read(client.frame(.binary, [0xFF], fin: true)) == ["binary [255]"])
  }

  @Test func closeFramesAreChecked() {
    #expect(read(client.frame(.close, [], fin: true)) == ["close none "])
    #expect(
      read(client.frame(.close, [0x03], fin: true)) == [
        "fail 1002: a close frame with a 1-byte code"
      ])
    #expect(
      read(client.frame(.close, [0x03, 0xED], fin: true)) == [
        "fail 1002: a close frame with code 1005"
      ])
    #expect(
      read(client.frame(.close, [0x03, 0xE7], fin: true)) == [
        "fail 1002: a close frame with code 999"
      ])
    #expect(read(client.frame(.close, [0x0F, 0xA0], fin: true)) == ["close 4000 "])
    #expect(
      read(client.frame(.close, [0x03, 0xE8, 0xFF], fin: true)) == [
        "fail 1007: a close reason is not valid UTF-8"
      ])
    // Nothing is read after a close.
    #expect(
      read(client.encode(.close(code: .goingAway, reason: "")) + client.encode(.text("late"))) == [
        "close 1001 "
      ])
  }

  @Test func closeReasonIsCutAtACharacter() {
    let long = String(repeating: "é", count: 100)
    let frame = WebSocketEncoder(role: .server).encode(.close(code: .normal, reason: long))
    #expect(frame.count == 2 + 2 + 122)
    #expect(read(frame, role: .client) == ["close 1000 \(String(repeating: "é", count: 61))"])
    #expect(
      WebSocketEncoder(role: .server).encode(.close(code: .noStatus, reason: "x")) == [0x88, 0x00])
  }

  @Test func randomBytesNeverCrash() {
    var generator = SeededGenerator(seed: 36)
    for _ in 0..<2_000 {
      let count = Int.random(in: 0..<64, using: &generator)
      var bytes = (0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) }
      if !bytes.isEmpty, Bool.random(using: &generator) { bytes[0] = 0x81 }
      if bytes.count > 1, Bool.random(using: &generator) { bytes[1] |= 0x80 }
      _ = read(
        bytes, limits: WebSocketLimits(maxFrameBytes: 1_000, maxMessageBytes: 2_000), piece: 3)
    }
  }
}
