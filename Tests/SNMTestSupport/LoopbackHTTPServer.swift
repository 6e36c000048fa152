import Foundation
import Glibc
import SNMWire
import Synchronization

/// A request the loopback server received, as bytes on the wire said it.
public struct ReceivedRequest: Sendable {
  public let method: String
  /// The request target exactly as sent: path and encoded query.
  public let target: String
  /// Header names lowercased; a repeated header keeps its last value.
  public let headers: [String: String]
  public let body: [UInt8]
  /// 1 for the first accepted connection, 2 for the second, ...
  public let connection: Int
}

/// What the loopback server does with a request.
public enum LoopbackReply: Sendable {
  /// An HTTP/1.1 answer with `Content-Length`, keeping the connection open.
  case respond(status: Int, headers: [String: String] = [:], body: String = "")
  /// Never answers; the connection stays open until the client gives up or the server stops.
  case hang
  /// Closes the connection without a byte of answer.
  case closeWithoutAnswer
  /// Sends these bytes (not HTTP) and closes.
  case garbage(String)
  /// Sends `head`, then one byte of `filler` every `interval` until the client goes away (a slow
  /// drip that never ends).
  case drip(head: String, filler: String, interval: Duration)
  /// Hands the connection to `serve` (a WebSocket server writes its own 101 and frames); the
  /// connection closes when it returns.
  case takeOver(@Sendable (_ socket: Int32) -> Void)
}

/// A tiny HTTP/1.1 server on 127.0.0.1 and a free port: the test double for the provider's unit
/// tests (one thread per connection, persistent connections, scripted answers). It reads requests
/// and writes answers with SNMWire's codec, the one the client and the local project use.
public final class LoopbackHTTPServer: Sendable {
  private struct State {
    var requests: [ReceivedRequest] = []
    var connections = 0
    var closedByClient = 0
    var clients: [Int32] = []
    var stopped = false
  }

  public let port: UInt16
  private let listener: Int32
  private let handler: @Sendable (ReceivedRequest) -> LoopbackReply
  private let state = Mutex(State())

  public init(handler: @escaping @Sendable (ReceivedRequest) -> LoopbackReply) throws {
    self.handler = handler
    listener = try Self.bindLoopback(port: 0)
    port = try Self.localPort(of: listener)
    guard listen(listener, 16) == 0 else { throw POSIXError(.EADDRINUSE) }
    Thread.detachNewThread { [self] in acceptLoop() }
  }

  public var baseURL: String { "http://127.0.0.1:\(port)" }
  public var requests: [ReceivedRequest] { state.withLock { $0.requests } }
  public var connectionCount: Int { state.withLock { $0.connections } }
  /// Connections the client closed while the server was still waiting to read from them.
  public var closedByClientCount: Int { state.withLock { $0.closedByClient } }

  /// Stops accepting and closes every open connection. File descriptors are only closed by the
  /// threads that own them, and only shut down here under the lock, so a number the system has
  /// already handed to another test's socket is never touched.
  public func stop() {
    state.withLock { state in
      state.stopped = true
      shutdown(listener, Int32(SHUT_RDWR))
      for client in state.clients { shutdown(client, Int32(SHUT_RDWR)) }
    }
  }

  /// Runs `body` with a port on 127.0.0.1 that refuses connections: bound (so no other test can
  /// take it) but not listening.
  public static func withRefusingPort<T>(_ body: (UInt16) async throws -> T) async throws -> T {
    let socket = try bindLoopback(port: 0)
    defer { close(socket) }
    return try await body(try localPort(of: socket))
  }

  private func acceptLoop() {
    defer { close(listener) }
    while true {
      let client = accept(listener, nil, nil)
      if client < 0 && errno == EINTR { continue }
      guard client >= 0 else { return }
      let number = state.withLock { state -> Int? in
        if state.stopped { return nil }
        state.connections += 1
        state.clients.append(client)
        return state.connections
      }
      guard let number else {
        close(client)
        return
      }
      Thread.detachNewThread { [self] in serve(client, connection: number) }
    }
  }

  private func serve(_ client: Int32, connection: Int) {
    defer {
      state.withLock { state in
        state.clients.removeAll { $0 == client }
        close(client)
      }
    }
    var decoder = HTTPDecoder(reading: .requests, limits: .requests)
    while let request = readRequest(client, decoder: &decoder, connection: connection) {
      state.withLock { $0.requests.append(request) }
      switch handler(request) {
      case .respond(let status, let headers, let body):
        var fields: HTTPHeaders = ["Content-Length": String(body.utf8.count)]
        for (name, value) in headers.sorted(by: { $0.key < $1.key }) {
          fields.append(name: name, value: value)
        }
        let head = HTTPEncoder.head(of: HTTPResponseHead(status: status, headers: fields))
        // A HEAD answer announces the body's length but sends no body.
        guard write(client, head + (request.method == "HEAD" ? [] : Array(body.utf8))) else {
          return
        }
      case .hang:
        var byte: UInt8 = 0
        if recv(client, &byte, 1, 0) <= 0 {
          state.withLock { state in if !state.stopped { state.closedByClient += 1 } }
        }
        return
      case .closeWithoutAnswer:
        return
      case .takeOver(let serve):
        serve(client)
        return
      case .garbage(let text):
        _ = write(client, text)
        return
      case .drip(let head, let filler, let interval):
        guard write(client, head) else { return }
        let bytes = Array(filler.utf8)
        var index = 0
        while !bytes.isEmpty && !state.withLock({ $0.stopped }) {
          Thread.sleep(
            forTimeInterval: Double(interval.components.attoseconds) / 1e18
              + Double(interval.components.seconds))
          guard write(client, String(decoding: [bytes[index % bytes.count]], as: UTF8.self)) else {
            state.withLock { state in if !state.stopped { state.closedByClient += 1 } }
            return
          }
          index += 1
        }
        return
      }
    }
  }

  /// Reads one request; nil when the connection ends first (or sends what is not a request).
  private func readRequest(_ client: Int32, decoder: inout HTTPDecoder, connection: Int)
    -> ReceivedRequest?
  {
    var head: HTTPRequestHead?
    var body: [UInt8] = []
    while true {
      do {
        while let part = try decoder.next() {
          switch part {
          case .requestHead(let started): head = started
          case .body(let bytes): body.append(contentsOf: bytes)
          case .end:
            guard let head else { return nil }
            var headers: [String: String] = [:]
            for field in head.headers { headers[field.name.lowercased()] = field.value }
            return ReceivedRequest(
              method: head.method, target: head.target, headers: headers, body: body,
              connection: connection)
          case .responseHead: return nil
          }
        }
      } catch {
        return nil
      }
      guard fill(client, &decoder) else { return nil }
    }
  }

  private func fill(_ client: Int32, _ decoder: inout HTTPDecoder) -> Bool {
    var chunk = [UInt8](repeating: 0, count: 16_384)
    var count = -1
    repeat {
      count = chunk.withUnsafeMutableBytes { recv(client, $0.baseAddress, $0.count, 0) }
    } while count < 0 && errno == EINTR
    guard count > 0 else { return false }
    decoder.append(contentsOf: chunk[..<count])
    return true
  }

  private func write(_ client: Int32, _ text: String) -> Bool {
    write(client, Array(text.utf8))
  }

  private func write(_ client: Int32, _ bytes: [UInt8]) -> Bool {
    var bytes = bytes[...]
    while !bytes.isEmpty {
      let sent = bytes.withUnsafeBytes {
        send(client, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
      }
      if sent < 0 && errno == EINTR { continue }
      guard sent > 0 else { return false }
      bytes = bytes.dropFirst(sent)
    }
    return true
  }

  private static func bindLoopback(port: UInt16) throws -> Int32 {
    let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard socket >= 0 else { throw POSIXError(.EMFILE) }
    var reuse: Int32 = 1
    setsockopt(socket, SOL_SOCKET, SO_REUSEADDR, &reuse, socklen_t(MemoryLayout<Int32>.size))
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = port.bigEndian
    address.sin_addr.s_addr = UInt32(0x7f00_0001).bigEndian
    let bound = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        bind(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    guard bound == 0 else {
      close(socket)
      throw POSIXError(.EADDRINUSE)
    }
    return socket
  }

  private static func localPort(of socket: Int32) throws -> UInt16 {
    var address = sockaddr_in()
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let result = withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(socket, $0, &length) }
    }
    guard result == 0 else { throw POSIXError(.EBADF) }
    return UInt16(bigEndian: address.sin_port)
  }
}
