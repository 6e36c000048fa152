import Foundation
import SNMGateway
import SNMWire

#if canImport(Glibc)
  import Glibc
#endif

/// One call forwarded to a function's process on its Unix socket: the request written whole,
/// the answer read back (its body streamed on when the function streams it), all within the
/// call's deadline.
///
/// ```swift
/// switch FunctionCall(socketPath: process.socketPath, deadline: now + 400).send(request) {
/// case .answered(let response): ...   // the function's answer
/// case .dropped: ...                   // the connection ended before an answer: it crashed
/// case .late: ...                      // no answer by the deadline
/// }
/// ```
struct FunctionCall {
  enum Outcome {
    case answered(HTTPResponse)
    /// The connection could not be made or ended before the answer's head.
    case dropped
    /// The deadline passed before the answer's head.
    case late
  }

  /// The function's Unix socket.
  let socketPath: String
  /// On the monotonic clock (`monotonicSeconds()`).
  let deadline: Double
  /// Run once a streamed answer's body ended or was dropped (the call's place in the
  /// functions' share is held until then).
  var streamEnded: @Sendable () -> Void = {}

  /// Fields a proxy does not pass on (its own connection's).
  static let hopByHop: Set<String> = [
    "connection", "keep-alive", "transfer-encoding", "te", "trailer", "upgrade",
    "proxy-connection", "content-length", "host",
  ]

  func send(_ request: HTTPRequest, target: String) -> Outcome {
    guard let socket = connectSocket() else { return .dropped }
    var head: [UInt8] = []
    HTTPEncoder.appendRequestLine(method: request.method, target: target, to: &head)
    HTTPEncoder.appendField(name: "Host", value: "localhost", to: &head)
    for field in request.headers where !Self.hopByHop.contains(field.name.lowercased()) {
      HTTPEncoder.appendField(name: field.name, value: field.value, to: &head)
    }
    if !request.body.isEmpty || !["GET", "HEAD", "DELETE", "OPTIONS"].contains(request.method) {
      HTTPEncoder.appendField(name: "Content-Length", value: String(request.body.count), to: &head)
    }
    HTTPEncoder.appendField(name: "Connection", value: "close", to: &head)
    HTTPEncoder.appendEnd(to: &head)
    guard FileDescriptorIO.writeAll(socket, head + request.body) == nil else {
      close(socket)
      return .dropped
    }
    var decoder = HTTPDecoder(reading: .responses, limits: .responses)
    decoder.answersHEAD = request.method == "HEAD"
    var buffer = [UInt8](repeating: 0, count: 65_536)
    var responseHead: HTTPResponseHead?
    var body: [UInt8] = []
    // The head, and the body when its length is known.
    reading: while true {
      do {
        while let part = try decoder.next() {
          switch part {
          case .responseHead(let head):
            responseHead = head
            if case .length = head.framing {
            } else if head.framing != .none {
              break reading
            }
          case .body(let bytes): body.append(contentsOf: bytes)
          case .end: break reading
          case .requestHead: break
          }
        }
      } catch {
        close(socket)
        return responseHead == nil ? .dropped : .answered(Self.response(responseHead, body))
      }
      switch receive(socket, into: &buffer) {
      case .bytes(let count): decoder.append(contentsOf: buffer[0..<count])
      case .closed:
        if case .complete = decoder.finish() { break reading }
        close(socket)
        return responseHead == nil ? .dropped : .answered(Self.response(responseHead, body))
      case .late:
        close(socket)
        return responseHead == nil ? .late : .answered(Self.response(responseHead, body))
      }
    }
    guard let responseHead else {
      close(socket)
      return .dropped
    }
    var response = Self.response(responseHead, body)
    if case .length = responseHead.framing {
      close(socket)
      return .answered(response)
    }
    if responseHead.framing == .none {
      close(socket)
      return .answered(response)
    }
    // Streamed (chunked, or until the connection ends): passed on as it comes.
    let call = self
    let carried = decoder
    response.bodyStream = HTTPStreamedBody(
      produce: { write in
        var decoder = carried
        var buffer = [UInt8](repeating: 0, count: 65_536)
        defer {
          close(socket)
          call.streamEnded()
        }
        while true {
          do {
            while let part = try decoder.next() {
              switch part {
              case .body(let bytes):
                guard bytes.withUnsafeBytes(write) else { return false }
              case .end: return true
              case .responseHead, .requestHead: break
              }
            }
          } catch {
            return false
          }
          switch call.receive(socket, into: &buffer) {
          case .bytes(let count): decoder.append(contentsOf: buffer[0..<count])
          case .closed:
            if case .complete = decoder.finish() { return true }
            return false
          case .late: return false
          }
        }
      },
      abandon: {
        close(socket)
        call.streamEnded()
      })
    return .answered(response)
  }

  static func response(_ head: HTTPResponseHead?, _ body: [UInt8]) -> HTTPResponse {
    var headers = HTTPHeaders()
    for field in head?.headers ?? HTTPHeaders()
    where !hopByHop.contains(field.name.lowercased()) && field.name.lowercased() != "date" {
      headers.append(name: field.name, value: field.value)
    }
    return HTTPResponse(status: head?.status ?? 502, headers: headers, body: body)
  }

  enum Received {
    case bytes(Int)
    case closed
    case late
  }

  func receive(_ socket: Int32, into buffer: inout [UInt8]) -> Received {
    while true {
      let left = deadline - monotonicSeconds()
      guard left > 0 else { return .late }
      var descriptor = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
      let ready = poll(&descriptor, 1, Int32(min(left, 3600) * 1000) + 1)
      if ready < 0 && errno == EINTR { continue }
      if ready == 0 { continue }
      let count = buffer.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
      if count > 0 { return .bytes(count) }
      if count < 0 && (errno == EINTR || errno == EAGAIN) { continue }
      return .closed
    }
  }

  func connectSocket() -> Int32? {
    let socket = Glibc.socket(
      AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    guard socket >= 0 else { return nil }
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    let path = Array(socketPath.utf8)
    let capacity = MemoryLayout.size(ofValue: address.sun_path)
    guard path.count < capacity else {
      close(socket)
      return nil
    }
    withUnsafeMutableBytes(of: &address.sun_path) { buffer in
      buffer.copyBytes(from: path)
      buffer[path.count] = 0
    }
    let connected = withUnsafePointer(to: &address) { pointer in
      pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        connect(socket, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
      }
    }
    guard connected == 0 else {
      close(socket)
      return nil
    }
    return socket
  }
}
