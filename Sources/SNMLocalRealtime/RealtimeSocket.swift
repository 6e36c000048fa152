import Dispatch
import SNMGateway
import SNMWire
import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// One client's WebSocket: its frames in and out, the Phoenix version it speaks, who connected
/// (the API key's claims) and the channels it joined. Sends may come from any thread (another
/// socket's broadcast, the REST broadcast endpoint); what the socket does not take at once waits
/// in its outbox for the loop to send. Its Phoenix messages are handled in order on `queue`.
package final class RealtimeSocket: Sendable {
  let descriptor: Int32
  let codec: PhoenixCodec
  /// The claims of the API key it connected with.
  let connectClaims: JSONValue
  let queue: DispatchQueue
  let loop: RealtimeSocketLoop
  private let encoder = WebSocketEncoder(role: .server)
  private let state: Mutex<State>

  struct State {
    var decoder = WebSocketDecoder(role: .server, limits: .server)
    var outbox: [UInt8] = []
    var closing = false
    var closed = false
    var lastHeard = monotonicSeconds()
    /// The channels joined, by topic.
    var channels: [String: RealtimeChannel] = [:]
  }

  /// The most a slow reader may leave unsent before it is closed (and all of them together
  /// no more than the loop's `unsentLimit`).
  static let maxOutbox = 32 << 20

  init(
    descriptor: Int32, version: PhoenixVersion, connectClaims: JSONValue, loop: RealtimeSocketLoop
  ) {
    self.descriptor = descriptor
    codec = PhoenixCodec(version: version)
    self.connectClaims = connectClaims
    self.loop = loop
    queue = DispatchQueue(label: "snm-realtime-socket")
    state = Mutex(State())
  }

  enum Received {
    case messages([WebSocketMessage])
    case failed(WebSocketError)
  }

  /// Decodes received bytes (on the loop thread).
  func receive(_ bytes: ArraySlice<UInt8>) -> Received {
    state.withLock { state in
      state.lastHeard = monotonicSeconds()
      state.decoder.append(contentsOf: bytes)
      var messages: [WebSocketMessage] = []
      do throws(WebSocketError) {
        while let message = try state.decoder.next() { messages.append(message) }
      } catch {
        return .failed(error)
      }
      return .messages(messages)
    }
  }

  var lastHeard: Double { state.withLock { $0.lastHeard } }
  var isClosing: Bool { state.withLock { $0.closing && !$0.closed } }

  /// The channels joined, by topic (a copy).
  var channels: [String: RealtimeChannel] { state.withLock { $0.channels } }

  func channel(_ topic: String) -> RealtimeChannel? { state.withLock { $0.channels[topic] } }

  func setChannel(_ topic: String, _ channel: RealtimeChannel?) {
    state.withLock { $0.channels[topic] = channel }
  }

  /// Sends a Phoenix message (encoded for this socket's version).
  func push(_ message: PhoenixMessage) {
    sendFrame(.text(codec.encode(message, to: .toClient)))
  }

  /// Sends a Phoenix frame; one this socket cannot carry (binary on 1.0.0) is dropped.
  func push(_ frame: PhoenixFrame) {
    guard let message = try? codec.encode(frame, to: .toClient) else { return }
    sendFrame(message)
  }

  func sendFrame(_ message: WebSocketMessage) {
    send(encoder.encode(message))
  }

  /// Sends a close frame, then has the loop close the socket.
  func sendClose(_ code: WebSocketCloseCode, reason: String) {
    sendFrame(.close(code: code, reason: reason))
    state.withLock { $0.closing = true }
    loop.wake()
  }

  /// Sends what the socket takes now; the rest waits in the outbox for the loop.
  private func send(_ bytes: [UInt8]) {
    let blocked = state.withLock { state -> Bool in
      guard !state.closed, !state.closing || bytes.first == 0x88 else { return false }
      if !state.outbox.isEmpty {
        guard keep(bytes.count) else {
          state.closing = true
          return false
        }
        state.outbox += bytes
        if state.outbox.count > Self.maxOutbox { state.closing = true }
        return false
      }
      let sent = Self.write(descriptor, bytes[...])
      guard sent >= 0 else {
        state.closing = true
        return false
      }
      if sent < bytes.count {
        guard keep(bytes.count - sent) else {
          state.closing = true
          return false
        }
        state.outbox = Array(bytes[sent...])
        return true
      }
      return false
    }
    if blocked { loop.watch(self, writing: true) }
    if isClosing { loop.wake() }
  }

  /// Sends what waits in the outbox (on the loop thread); true once it is empty.
  func flush() -> Bool {
    state.withLock { state in
      guard !state.closed, !state.outbox.isEmpty else { return true }
      let sent = Self.write(descriptor, state.outbox[...])
      guard sent >= 0 else {
        state.closing = true
        return true
      }
      state.outbox.removeFirst(sent)
      loop.unsent.subtract(sent, ordering: .relaxed)
      return state.outbox.isEmpty
    }
  }

  /// Closes the descriptor (on the loop thread, once it is forgotten); no send follows.
  func closeDescriptor() {
    state.withLock { state in
      state.closed = true
      loop.unsent.subtract(state.outbox.count, ordering: .relaxed)
      state.outbox = []
      close(descriptor)
    }
  }

  /// Counts `count` more bytes unsent, unless every socket's outbox together would then hold
  /// more than the loop's limit (the caller closes the socket instead).
  private func keep(_ count: Int) -> Bool {
    let total = loop.unsent.add(count, ordering: .relaxed).newValue
    guard total > loop.unsentLimit else { return true }
    loop.unsent.subtract(count, ordering: .relaxed)
    return false
  }

  /// Bytes written without waiting, or -1 when the peer is gone.
  private static func write(_ descriptor: Int32, _ bytes: ArraySlice<UInt8>) -> Int {
    bytes.withUnsafeBytes { buffer in
      var offset = 0
      while offset < buffer.count, let base = buffer.baseAddress {
        let sent = Glibc.send(descriptor, base + offset, buffer.count - offset, Int32(MSG_NOSIGNAL))
        if sent > 0 {
          offset += sent
        } else if sent < 0 && errno == EINTR {
          continue
        } else if sent < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) {
          return offset
        } else {
          return -1
        }
      }
      return offset
    }
  }
}
