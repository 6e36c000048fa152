import Foundation
import SNMWire
import Synchronization

/// A Phoenix 2.0.0 server on a loopback WebSocket, for the client's unit tests: it answers the
/// upgrade with SNMWire's handshake and reads frames with SNMWire's codec (the one the local
/// project serves with), handing each message to a script that says what to send back.
public final class LoopbackPhoenixServer: Sendable {
  /// What the server sends in answer to a message (or on its own, first thing after the upgrade).
  public enum Send: Sendable {
    case message(PhoenixMessage)
    /// Bytes as they are: a hostile server's frames.
    case raw([UInt8])
    case close(WebSocketCloseCode)
  }

  /// The messages the server read, in order.
  public final class Received: Sendable {
    let list = Mutex<[PhoenixMessage]>([])
  }

  public let http: LoopbackHTTPServer
  private let received = Received()

  public init(
    greeting: [Send] = [], script: @escaping @Sendable (PhoenixMessage) -> [Send]
  ) throws {
    let received = self.received
    http = try LoopbackHTTPServer { request in
      .takeOver { socket in
        Self.serve(socket, request: request, greeting: greeting, script: script) { message in
          received.list.withLock { $0.append(message) }
        }
      }
    }
  }

  public var url: String { http.baseURL }
  public var messages: [PhoenixMessage] { received.list.withLock { $0 } }

  public func stop() { http.stop() }

  /// A push from the server on `topic`, outside any reply.
  public static func push(_ topic: String, _ event: String, _ payload: JSONValue) -> Send {
    .message(PhoenixMessage(joinRef: nil, ref: nil, topic: topic, event: event, payload: payload))
  }

  /// The ok reply to `message`.
  public static func ok(_ message: PhoenixMessage, _ response: JSONValue = [:]) -> Send {
    .message(
      PhoenixMessage(
        joinRef: message.joinRef, ref: message.ref, topic: message.topic, event: "phx_reply",
        payload: ["status": "ok", "response": response]))
  }

  private static func serve(
    _ socket: Int32, request: ReceivedRequest, greeting: [Send],
    script: @Sendable (PhoenixMessage) -> [Send], note: @Sendable (PhoenixMessage) -> Void
  ) {
    guard let key = request.headers["sec-websocket-key"] else { return }
    let head = HTTPEncoder.head(
      of: HTTPResponseHead(status: 101, headers: WebSocketHandshake.acceptFields(key: key)))
    guard write(socket, head) else { return }
    let encoder = WebSocketEncoder(role: .server)
    let codec = PhoenixCodec(version: .v2)
    func send(_ sends: [Send]) -> Bool {
      for item in sends {
        switch item {
        case .message(let message):
          guard write(socket, encoder.encode(.text(codec.encode(message, to: .toClient))))
          else { return false }
        case .raw(let bytes):
          guard write(socket, bytes) else { return false }
        case .close(let code):
          _ = write(socket, encoder.encode(.close(code: code, reason: "")))
          return false
        }
      }
      return true
    }
    guard send(greeting) else { return }
    var decoder = WebSocketDecoder(role: .server, limits: .server)
    var buffer = [UInt8](repeating: 0, count: 65_536)
    while true {
      let count = recv(socket, &buffer, buffer.count, 0)
      guard count > 0 else { return }
      decoder.append(contentsOf: buffer[0..<count])
      do {
        while let message = try decoder.next() {
          switch message {
          case .close:
            _ = write(socket, encoder.encode(.close(code: .normal, reason: "")))
            return
          case .text, .binary:
            guard case .message(let phoenix) = try codec.decode(message, from: .toServer)
            else { continue }
            note(phoenix)
            guard send(script(phoenix)) else { return }
          default:
            continue
          }
        }
      } catch {
        return
      }
    }
  }

  private static func write(_ socket: Int32, _ bytes: [UInt8]) -> Bool {
    var offset = 0
    while offset < bytes.count {
      let sent = bytes[offset...].withUnsafeBytes {
        Glibc.send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
      }
      guard sent > 0 else { return false }
      offset += sent
    }
    return true
  }
}
