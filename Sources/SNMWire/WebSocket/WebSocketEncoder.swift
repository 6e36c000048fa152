/// Writes WebSocket frames (RFC 6455 §5.2): a client masks each with a fresh key, a server
/// does not; messages longer than `fragmentBytes` go out in fragments.
///
/// ```swift
/// let server = WebSocketEncoder(role: .server)
/// socket.write(server.encode(.text("hello")))
/// var client = WebSocketEncoder(role: .client)   // masking keys from the system's generator
/// socket.write(client.encode(.close(code: .normal, reason: "")))
/// ```
public struct WebSocketEncoder: Sendable {
  public let role: WebSocketRole
  /// Largest payload of one data frame; longer messages are fragmented.
  public var fragmentBytes: Int
  private var maskingKey: @Sendable () -> [UInt8]

  /// An encoder for `role`; a client's masking keys come from `maskingKey` (four bytes a call;
  /// tests give fixed ones).
  public init(
    role: WebSocketRole, fragmentBytes: Int = 1 << 20,
    maskingKey: @escaping @Sendable () -> [UInt8] = {
      var generator = SystemRandomNumberGenerator()
      return (0..<4).map { _ in UInt8.random(in: 0...255, using: &generator) }
    }
  ) {
    self.role = role
    self.fragmentBytes = max(1, fragmentBytes)
    self.maskingKey = maskingKey
  }

  /// The frames of `message`, back to back. A close reason is cut to fit 125 bytes at a
  /// character boundary; an unsendable close code is sent as none.
  public func encode(_ message: WebSocketMessage) -> [UInt8] {
    switch message {
    case .text(let text): return data(.text, Array(text.utf8))
    case .binary(let bytes): return data(.binary, bytes)
    case .ping(let bytes): return frame(.ping, Array(bytes.prefix(125)), fin: true)
    case .pong(let bytes): return frame(.pong, Array(bytes.prefix(125)), fin: true)
    case .close(let code, let reason):
      guard let code, code.isSendable else { return frame(.close, [], fin: true) }
      var payload = [UInt8(code.rawValue >> 8), UInt8(code.rawValue & 0xFF)]
      var kept = Substring(reason)
      while kept.utf8.count > 123 { kept.removeLast() }
      payload.append(contentsOf: kept.utf8)
      return frame(.close, payload, fin: true)
    }
  }

  private func data(_ opcode: WebSocketOpcode, _ bytes: [UInt8]) -> [UInt8] {
    if bytes.count <= fragmentBytes { return frame(opcode, bytes, fin: true) }
    var out: [UInt8] = []
    var start = 0
    while start < bytes.count {
      let end = min(bytes.count, start + fragmentBytes)
      out += frame(
        start == 0 ? opcode : .continuation, Array(bytes[start..<end]), fin: end == bytes.count)
      start = end
    }
    return out
  }

  /// One frame: header, masking key (client), payload (masked by a client).
  public func frame(_ opcode: WebSocketOpcode, _ payload: [UInt8], fin: Bool) -> [UInt8] {
    var out: [UInt8] = []
    out.reserveCapacity(payload.count + 14)
    out.append((fin ? 0x80 : 0) | opcode.rawValue)
    let maskBit: UInt8 = role == .client ? 0x80 : 0
    switch payload.count {
    case 0..<126:
      out.append(maskBit | UInt8(payload.count))
    case 126...0xFFFF:
      out.append(maskBit | 126)
      out.append(UInt8(payload.count >> 8))
      out.append(UInt8(payload.count & 0xFF))
    default:
      out.append(maskBit | 127)
      let length = UInt64(payload.count)
      for shift in stride(from: 56, through: 0, by: -8) {
        out.append(UInt8(truncatingIfNeeded: length >> UInt64(shift)))
      }
    }
    guard role == .client else {
      out.append(contentsOf: payload)
      return out
    }
    var key = maskingKey()
    while key.count < 4 { key.append(0) }
    out.append(contentsOf: key.prefix(4))
    for (index, byte) in payload.enumerated() { out.append(byte ^ key[index & 3]) }
    return out
  }
}
