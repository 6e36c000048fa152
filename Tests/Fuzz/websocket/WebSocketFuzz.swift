import SNMWire

/// libFuzzer entry for the WebSocket reader (``WebSocketDecoder``, which reads Realtime's sockets
/// on both sides) and the Phoenix codec behind it: arbitrary bytes as a connection's frames (the
/// first byte picks the role and the Phoenix version), read all at once and in pieces whose
/// sizes come from the input, the way `recv` may split them. Each whole message is decoded as a
/// Phoenix frame both ways. Fails (traps) when the two readings disagree (the messages, a
/// refusal and its close code) or when a message passes the limits. Built and run by
/// `scripts/fuzz run websocket`.
@_cdecl("LLVMFuzzerTestOneInput")
public func webSocketFuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let bytes = Array(UnsafeBufferPointer(start: data, count: size))
  guard let first = bytes.first else { return 0 }
  let role: WebSocketRole = first & 1 == 0 ? .server : .client
  let codec = PhoenixCodec(version: first & 2 == 0 ? .v1 : .v2)
  let frames = Array(bytes.dropFirst())
  let pieceSizes = frames.prefix(8).map { Int($0 % 23) + 1 }
  let whole = WebSocketFuzzFeed.events(frames, role: role, pieceSizes: [])
  let pieces = WebSocketFuzzFeed.events(frames, role: role, pieceSizes: pieceSizes)
  fuzzCheck(whole == pieces, "pieces read differently: \(whole) vs \(pieces)")
  for event in whole {
    guard case .message(let message) = event else { continue }
    switch message {
    case .text(let text):
      fuzzCheck(text.utf8.count <= WebSocketFuzzFeed.limits.maxMessageBytes, "text past the limit")
    case .binary(let payload):
      fuzzCheck(payload.count <= WebSocketFuzzFeed.limits.maxMessageBytes, "bytes past the limit")
    case .ping(let payload), .pong(let payload):
      fuzzCheck(payload.count <= 125, "a control frame past 125 bytes")
    case .close: break
    }
    for direction in [PhoenixDirection.toServer, .toClient] {
      _ = try? codec.decode(message, from: direction)
    }
  }
  return 0
}

/// Feeds bytes to a ``WebSocketDecoder`` and records the messages it hands out, then its
/// refusal (by close code) if any.
enum WebSocketFuzzFeed {
  enum Event: Equatable {
    case message(WebSocketMessage)
    case refused(WebSocketCloseCode)
  }

  /// Small, so that inputs of a few KiB reach them.
  static let limits = WebSocketLimits(maxFrameBytes: 512, maxMessageBytes: 1024)

  static func events(_ bytes: [UInt8], role: WebSocketRole, pieceSizes: [Int]) -> [Event] {
    var decoder = WebSocketDecoder(role: role, limits: limits)
    var events: [Event] = []
    var offset = 0
    var index = 0
    repeat {
      let size = pieceSizes.isEmpty ? bytes.count : pieceSizes[index % pieceSizes.count]
      index += 1
      let end = min(bytes.count, offset + size)
      decoder.append(contentsOf: bytes[offset..<end])
      offset = end
      do throws(WebSocketError) {
        while let message = try decoder.next() { events.append(.message(message)) }
      } catch {
        events.append(.refused(error.closeCode))
        return events
      }
    } while offset < bytes.count
    return events
  }
}
