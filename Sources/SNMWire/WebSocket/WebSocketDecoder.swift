/// Turns the bytes of one WebSocket connection into whole messages (RFC 6455 §5): frames
/// unmasked, fragments joined, control frames handed out between fragments, text checked as
/// UTF-8, close frames checked for a valid code and reason.
///
/// ```swift
/// var decoder = WebSocketDecoder(role: .server, limits: .server)
/// decoder.append(contentsOf: received)
/// while let message = try decoder.next() {
///   switch message {
///   case .text(let text): ...
///   case .ping(let data): send(.pong(data))
///   case .close(let code, _): ...   // nothing follows a close
///   default: ...
///   }
/// }
/// ```
/// Pure: no sockets, so tests feed it bytes however they like. Lengths are checked against
/// ``WebSocketLimits`` from the frame header, before its payload is waited for. Throws
/// ``WebSocketError`` (the close code to answer with); after one, the connection is done.
public struct WebSocketDecoder: Sendable {
  public let role: WebSocketRole
  public let limits: WebSocketLimits
  private var buffer: [UInt8] = []
  private var position = 0
  /// The data message being assembled from fragments: its kind and bytes so far.
  private var fragments: (opcode: WebSocketOpcode, bytes: [UInt8])?
  private var closed = false

  public init(role: WebSocketRole, limits: WebSocketLimits) {
    self.role = role
    self.limits = limits
  }

  /// Adds received bytes.
  public mutating func append(contentsOf bytes: some Sequence<UInt8>) {
    if position > 0, position >= buffer.count / 2 {
      buffer.removeFirst(position)
      position = 0
    }
    buffer.append(contentsOf: bytes)
  }

  /// Whether a message is half-assembled or a frame half-received (the peer went away mid-message).
  public var hasPartialMessage: Bool { fragments != nil || position < buffer.count }

  /// The next whole message, or nil when more bytes are needed (or a close frame was read).
  public mutating func next() throws(WebSocketError) -> WebSocketMessage? {
    while !closed {
      guard let frame = try nextFrame() else { return nil }
      if let message = try take(frame) { return message }
    }
    return nil
  }

  /// One frame's header fields and unmasked payload.
  private struct Frame {
    var fin: Bool
    var opcode: WebSocketOpcode
    var payload: [UInt8]
  }

  private mutating func nextFrame() throws(WebSocketError) -> Frame? {
    let available = buffer.count - position
    guard available >= 2 else { return nil }
    let first = buffer[position]
    let second = buffer[position + 1]
    guard first & 0x70 == 0 else {
      throw .protocolError("reserved bits set without an extension that defines them")
    }
    guard let opcode = WebSocketOpcode(rawValue: first & 0x0F) else {
      throw .protocolError("reserved opcode 0x\(String(first & 0x0F, radix: 16))")
    }
    let fin = first & 0x80 != 0
    let masked = second & 0x80 != 0
    switch role {
    case .server where !masked: throw .protocolError("a client frame is not masked")
    case .client where masked: throw .protocolError("a server frame is masked")
    default: break
    }
    var headerLength = 2
    var length = Int(second & 0x7F)
    if opcode.isControl {
      guard fin else { throw .protocolError("a control frame is fragmented") }
      guard length <= 125 else { throw .protocolError("a control frame is longer than 125 bytes") }
    }
    if length == 126 {
      guard available >= 4 else { return nil }
      length = Int(buffer[position + 2]) << 8 | Int(buffer[position + 3])
      guard length >= 126 else { throw .protocolError("a length not in its shortest form") }
      headerLength = 4
    } else if length == 127 {
      guard available >= 10 else { return nil }
      var announced: UInt64 = 0
      for index in 2..<10 { announced = announced << 8 | UInt64(buffer[position + index]) }
      guard announced >> 63 == 0 else {
        throw .protocolError("a frame length with its top bit set")
      }
      guard announced > 0xFFFF else { throw .protocolError("a length not in its shortest form") }
      // Checked while still a UInt64: 2^62 bytes must not become an Int the limits compare badly.
      guard announced <= UInt64(limits.maxFrameBytes) else {
        throw tooBig("a frame of \(announced) bytes", limit: limits.maxFrameBytes)
      }
      length = Int(announced)
      headerLength = 10
    }
    guard length <= limits.maxFrameBytes else {
      throw tooBig("a frame of \(length) bytes", limit: limits.maxFrameBytes)
    }
    if !opcode.isControl {
      let sofar = opcode == .continuation ? (fragments?.bytes.count ?? 0) : 0
      guard sofar + length <= limits.maxMessageBytes else {
        throw tooBig("a message of \(sofar + length) bytes", limit: limits.maxMessageBytes)
      }
    }
    let keyLength = masked ? 4 : 0
    guard available >= headerLength + keyLength + length else { return nil }
    let start = position + headerLength + keyLength
    var payload = Array(buffer[start..<start + length])
    if masked {
      let key = buffer[(position + headerLength)..<(position + headerLength + 4)]
      let keyStart = key.startIndex
      for index in payload.indices { payload[index] ^= key[keyStart + index & 3] }
    }
    position = start + length
    return Frame(fin: fin, opcode: opcode, payload: payload)
  }

  /// A frame folded into the message being assembled; the message when one is whole.
  private mutating func take(_ frame: Frame) throws(WebSocketError) -> WebSocketMessage? {
    switch frame.opcode {
    case .ping: return .ping(frame.payload)
    case .pong: return .pong(frame.payload)
    case .close:
      closed = true
      return try Self.closeMessage(frame.payload)
    case .text, .binary:
      guard fragments == nil else {
        throw .protocolError("a new message began before the fragmented one ended")
      }
      if frame.fin { return try Self.message(frame.opcode, frame.payload) }
      fragments = (frame.opcode, frame.payload)
      return nil
    case .continuation:
      guard var pending = fragments else {
        throw .protocolError("a continuation frame without a message to continue")
      }
      pending.bytes.append(contentsOf: frame.payload)
      if frame.fin {
        fragments = nil
        return try Self.message(pending.opcode, pending.bytes)
      }
      fragments = pending
      return nil
    }
  }

  private static func message(
    _ opcode: WebSocketOpcode, _ bytes: [UInt8]
  ) throws(WebSocketError) -> WebSocketMessage {
    guard opcode == .text else { return .binary(bytes) }
    guard let text = String(validating: bytes, as: UTF8.self) else {
      throw WebSocketError(closeCode: .invalidPayload, message: "a text message is not valid UTF-8")
    }
    return .text(text)
  }

  /// A close frame's payload: empty, or a 2-byte sendable code and a UTF-8 reason.
  static func closeMessage(_ payload: [UInt8]) throws(WebSocketError) -> WebSocketMessage {
    if payload.isEmpty { return .close(code: nil, reason: "") }
    guard payload.count >= 2 else { throw .protocolError("a close frame with a 1-byte code") }
    let code = WebSocketCloseCode(rawValue: UInt16(payload[0]) << 8 | UInt16(payload[1]))
    guard code.isSendable else { throw .protocolError("a close frame with code \(code)") }
    guard let reason = String(validating: payload[2...], as: UTF8.self) else {
      throw WebSocketError(closeCode: .invalidPayload, message: "a close reason is not valid UTF-8")
    }
    return .close(code: code, reason: reason)
  }

  private func tooBig(_ what: String, limit: Int) -> WebSocketError {
    WebSocketError(
      closeCode: .messageTooBig, message: "\(what) is over the limit of \(limit) bytes")
  }
}
