import Foundation
import SNMWire
import Synchronization

/// One client WebSocket (RFC 6455) over TCP (`ws://`) or TLS (`wss://`): the opening handshake, masked frames out, whole
/// messages in (SNMWire's codec), pings answered, close codes kept.
///
/// ```swift
/// let socket = try await WebSocketConnection.open(
///   url: "ws://127.0.0.1:54321/realtime/v1/websocket?vsn=2.0.0", timeout: .seconds(10)
/// ) { event in
///   if case .message(.text(let text)) = event { print(text) }
/// }
/// try socket.send(.text("[null,\"1\",\"phoenix\",\"heartbeat\",{}]"))
/// socket.close()
/// ```
/// A `wss://` URL verifies the server's certificate against `certificateAuthorities` (a PEM
/// file, as `--cacert`; nil for the system's) and its host name; it never falls back to `ws://`.
/// Messages arrive on a thread of the connection's own, in order, to `onEvent`; the last event
/// is always `.ended`. Nothing a server sends crashes it: frames past ``WebSocketLimits/client``,
/// bad UTF-8 or a broken frame end the connection with the close code the RFC asks for.
public final class WebSocketConnection: Sendable {
  /// What the reader hands over.
  public enum Event: Sendable {
    /// A text or binary message.
    case message(WebSocketMessage)
    /// The connection is over: nil when this side closed it.
    case ended(WebSocketClientError?)
  }

  private let connection: any WebSocketByteStream
  private let encoder = Mutex(WebSocketEncoder(role: .client))
  private let closing = Atomic<Bool>(false)

  private init(connection: any WebSocketByteStream) {
    self.connection = connection
  }

  /// Connects, sends the upgrade with `headers`, checks the 101 and starts reading.
  ///
  /// - Throws: ``WebSocketClientError``: `.badURL`, `.unreachable` (for `wss://` also a
  ///   certificate not trusted or not for the host), `.timedOut`, `.refused` (with the server's
  ///   body), `.protocolError`.
  public static func open(
    url: String, headers: [(String, String)] = [], timeout: Duration = .seconds(10),
    certificateAuthorities: String? = nil,
    onEvent: @escaping @Sendable (Event) -> Void
  ) async throws(WebSocketClientError) -> WebSocketConnection {
    let target = try Target(url)
    let result = await withCheckedContinuation {
      (continuation: CheckedContinuation<Result<WebSocketConnection, WebSocketClientError>, Never>)
      in
      let thread = Thread {
        do throws(WebSocketClientError) {
          let deadline = ContinuousClock.now + timeout
          let (socket, leftover) = try handshake(
            target, headers: headers, certificateAuthorities: certificateAuthorities,
            deadline: deadline)
          continuation.resume(returning: .success(socket))
          socket.read(leftover: leftover, onEvent: onEvent)
        } catch {
          continuation.resume(returning: .failure(error))
        }
      }
      thread.name = "snm websocket"
      thread.start()
    }
    return try result.get()
  }

  /// Sends one message (masked; long ones fragmented).
  public func send(_ message: WebSocketMessage) throws(WebSocketClientError) {
    let bytes = encoder.withLock { $0.encode(message) }
    do {
      try connection.send(bytes, deadline: .now + .seconds(10))
    } catch {
      throw error == .timedOut ? .timedOut : .dropped
    }
  }

  /// Sends a close frame and ends the connection; the reader then hands over `.ended(nil)`.
  public func close(code: WebSocketCloseCode = .normal, reason: String = "") {
    guard !closing.exchange(true, ordering: .relaxed) else { return }
    try? send(.close(code: code, reason: reason))
    connection.cancel()
  }

  /// Reads until the connection ends, answering pings and a close.
  private func read(leftover: [UInt8], onEvent: @Sendable (Event) -> Void) {
    var decoder = WebSocketDecoder(role: .client, limits: .client)
    decoder.append(contentsOf: leftover)
    var ending: WebSocketClientError?
    reading: while true {
      do throws(WebSocketError) {
        while let message = try decoder.next() {
          switch message {
          case .ping(let data):
            try? send(.pong(data))
          case .pong:
            break
          case .close(let code, let reason):
            if !closing.exchange(true, ordering: .relaxed) {
              try? send(.close(code: code ?? .normal, reason: ""))
            }
            ending = .closed(code: code, reason: reason)
            break reading
          case .text, .binary:
            onEvent(.message(message))
          }
        }
      } catch {
        if !closing.exchange(true, ordering: .relaxed) {
          try? send(.close(code: error.closeCode, reason: ""))
        }
        ending = .protocolError(error)
        break reading
      }
      let bytes: [UInt8]
      do {
        bytes = try connection.receive(deadline: .now + .seconds(365 * 86_400))
      } catch {
        ending = closing.load(ordering: .relaxed) ? nil : .dropped
        break reading
      }
      if bytes.isEmpty {
        ending = closing.load(ordering: .relaxed) ? nil : .dropped
        break reading
      }
      decoder.append(contentsOf: bytes)
    }
    connection.close()
    onEvent(.ended(ending))
  }

  /// Opens the TCP connection (and TLS on it for `wss://`) and upgrades it; returns the bytes
  /// read past the 101's head.
  private static func handshake(
    _ target: Target, headers: [(String, String)], certificateAuthorities: String?,
    deadline: ContinuousClock.Instant
  ) throws(WebSocketClientError) -> (WebSocketConnection, [UInt8]) {
    let connection: any WebSocketByteStream
    if target.secure {
      connection = try TLSClientStream.open(
        host: target.host, port: target.port, certificateAuthorities: certificateAuthorities,
        deadline: deadline)
    } else {
      do {
        connection = try PlainHTTPConnection.open(
          host: target.host, port: target.port, deadline: deadline)
      } catch {
        if case .unreachable(let why) = error { throw .unreachable(why) }
        throw .timedOut
      }
    }
    let key = WebSocketHandshake.makeKey()
    var request = "GET \(target.pathAndQuery) HTTP/1.1\r\nHost: \(target.hostField)\r\n"
    for field in WebSocketHandshake.requestFields(key: key) {
      request += "\(field.name): \(field.value)\r\n"
    }
    for (name, value) in headers { request += "\(name): \(value)\r\n" }
    request += "\r\n"
    var decoder = HTTPDecoder(reading: .responses, limits: .responses)
    decoder.upgrading = true
    do {
      try connection.send(Array(request.utf8), deadline: deadline)
      while true {
        let bytes = try connection.receive(deadline: deadline)
        guard !bytes.isEmpty else { throw PlainHTTPFailure.closedEarly(receivedNothing: false) }
        decoder.append(contentsOf: bytes)
        guard let part = try decoder.next() else { continue }
        guard case .responseHead(let head) = part else { continue }
        if head.status != 101 {
          let body = readBody(&decoder, connection, deadline: deadline)
          connection.close()
          throw WebSocketClientError.refused(status: head.status, body: body)
        }
        do {
          try WebSocketHandshake.checkAnswer(head, key: key)
        } catch {
          connection.close()
          throw WebSocketClientError.protocolError(.protocolError(error.message))
        }
        return (WebSocketConnection(connection: connection), Array(decoder.unread))
      }
    } catch let error as WebSocketClientError {
      throw error
    } catch let error as HTTPParseError {
      connection.close()
      throw .protocolError(.protocolError("the upgrade's answer is not HTTP: \(error)"))
    } catch {
      connection.close()
      throw (error as? PlainHTTPFailure) == .timedOut ? .timedOut : .dropped
    }
  }

  /// The text of a refusal's body, at most 4 KiB of it.
  private static func readBody(
    _ decoder: inout HTTPDecoder, _ connection: any WebSocketByteStream,
    deadline: ContinuousClock.Instant
  ) -> String {
    var body: [UInt8] = []
    reading: while body.count < 4096 {
      do {
        while let part = try decoder.next() {
          switch part {
          case .body(let bytes): body += bytes
          case .end: break reading
          default: break
          }
        }
        let bytes = try connection.receive(deadline: min(deadline, .now + .seconds(2)))
        if bytes.isEmpty { break }
        decoder.append(contentsOf: bytes)
      } catch {
        break
      }
    }
    return String(decoding: body.prefix(4096), as: UTF8.self)
  }

  /// Where a `ws://` or `wss://` URL points.
  struct Target {
    var secure: Bool
    var host: String
    var port: Int
    var pathAndQuery: String
    var hostField: String

    init(_ url: String) throws(WebSocketClientError) {
      guard let components = URLComponents(string: url), let host = components.host,
        !host.isEmpty
      else { throw .badURL(url) }
      switch components.scheme?.lowercased() {
      case "ws":
        secure = false
        port = components.port ?? 80
      case "wss":
        secure = true
        port = components.port ?? 443
      default: throw .badURL(url)
      }
      self.host = host
      let path = components.percentEncodedPath.isEmpty ? "/" : components.percentEncodedPath
      pathAndQuery = path + (components.percentEncodedQuery.map { "?" + $0 } ?? "")
      let bracketed = host.contains(":") ? "[\(host)]" : host
      hostField = components.port.map { "\(bracketed):\($0)" } ?? bracketed
    }
  }
}
