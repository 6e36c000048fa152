import Foundation
import SNMWire

#if canImport(Glibc)
  import Glibc
#endif

/// Serves one accepted socket: reads requests, calls the handler, writes responses, keeps alive.
struct HTTPConnection {
  let socket: Int32
  let limits: HTTPServerLimits
  let handler: HTTPServer.Handler
  let planner: HTTPServer.BodyPlanner?
  let remoteAddress: String
  /// Told `true` when the connection waits for a request with nothing of one received (the
  /// server may then close it to make room), `false` when bytes of one have arrived and before
  /// they are taken; that answers false when the server has closed the connection meanwhile.
  var reportIdle: (Bool) -> Bool = { _ in true }

  /// Runs until the peer closes, a limit or timeout ends it, or a response says close. The
  /// caller closes the fd.
  func serve() {
    var idle = true
    _ = reportIdle(true)
    var reader = HTTPRequestReader(
      limits: limits.decoding, bufferLimit: limits.framing.maxBodyBytes, planner: planner)
    // A streamed body cut off (the peer gone) leaves nothing: its sink is discarded.
    defer { reader.abandon() }
    var scratch = [UInt8](repeating: 0, count: 65_536)
    var lastActivity = monotonicSeconds()
    var requestStart: Double?
    while true {
      switch reader.next() {
      case .request(var request, let keepAlive):
        request.remoteAddress = remoteAddress
        request.peer = HTTPPeer(socket: socket)
        let response = handler(request)
        guard respond(response, keepAlive: keepAlive, to: request), keepAlive else { return }
        lastActivity = monotonicSeconds()
        requestStart = nil
      case .streamed(var request, let sink, let keepAlive):
        request.remoteAddress = remoteAddress
        request.peer = HTTPPeer(socket: socket)
        let response = sink.finish(request)
        let keep = keepAlive && response.headers["Connection"]?.lowercased() != "close"
        guard respond(response, keepAlive: keep, to: request), keep else { return }
        lastActivity = monotonicSeconds()
        requestStart = nil
      case .answered(let response):
        _ = write(HTTPResponseWriter.serialize(response, keepAlive: false, bodyless: false))
        lingeringClose()
        return
      case .failure(let failure):
        _ = write(
          HTTPResponseWriter.serialize(
            HTTPResponseWriter.failure(failure), keepAlive: false, bodyless: false))
        lingeringClose()
        return
      case .needMore:
        if reader.wantsContinue {
          reader.wantsContinue = false
          guard write(Array("HTTP/1.1 100 Continue\r\n\r\n".utf8)) else { return }
        }
        // Checked before every read, not only when a read times out: a client trickling a byte
        // a second (slowloris) must not keep a request open past its deadline. A streamed body
        // (an upload) may take as long as it needs while it keeps coming: its clock restarts
        // with every piece.
        if reader.hasPartialRequest, let start = requestStart,
          monotonicSeconds() - start >= limits.requestTimeout
        {
          refuseLateRequest()
          return
        }
        if !idle && !reader.hasPartialRequest {
          idle = true
          _ = reportIdle(true)
        }
        // An idle connection waits for the first byte without taking it, then claims itself
        // busy before reading: so the server either closed it before (and the request is the
        // client's to send again) or will not close it now.
        var received = 0
        if idle {
          received = scratch.withUnsafeMutableBytes {
            recv(socket, $0.baseAddress, 1, Int32(MSG_PEEK))
          }
          if received > 0 {
            guard reportIdle(false) else { return }
            idle = false
          }
        }
        if !idle {
          received = scratch.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
        }
        let now = monotonicSeconds()
        if received > 0 {
          if requestStart == nil || reader.isStreaming { requestStart = now }
          scratch.withUnsafeBufferPointer { buffer in
            reader.append(UnsafeBufferPointer(rebasing: buffer[0..<received]))
          }
          continue
        }
        if received == 0 { return }
        guard errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR else { return }
        if reader.hasPartialRequest, let start = requestStart {
          if now - start >= limits.requestTimeout {
            refuseLateRequest()
            return
          }
        } else if now - lastActivity >= limits.idleTimeout {
          return
        }
      }
    }
  }

  /// Writes `response` (its head, then its body or its file); false when the peer is gone.
  func respond(_ response: HTTPResponse, keepAlive: Bool, to request: HTTPRequest) -> Bool {
    let bodyless = request.method == "HEAD"
    guard
      write(HTTPResponseWriter.serialize(response, keepAlive: keepAlive, bodyless: bodyless))
    else { return false }
    guard !bodyless, let file = response.bodyFile, let fd = file.fd else { return true }
    return sendFile(fd, offset: file.offset, length: file.length)
  }

  /// Sends `length` bytes of `fd` from `offset` with `sendfile` (from the page cache to the
  /// socket, never through this process's memory).
  func sendFile(_ fd: Int32, offset start: Int64, length: Int64) -> Bool {
    var offset = off_t(start)
    let end = start + length
    while Int64(offset) < end {
      let sent = sendfile(socket, fd, &offset, Int(min(end - Int64(offset), 1 << 30)))
      if sent > 0 { continue }
      if sent < 0 && errno == EINTR { continue }
      return false
    }
    return true
  }

  /// Answers 408: the request did not arrive within `requestTimeout`. Closes lingering: a client
  /// still trickling would otherwise get a reset that can discard the 408 before it reads it.
  func refuseLateRequest() {
    let timeout = HTTPParseError(status: 408, message: "request not received in time")
    _ = write(
      HTTPResponseWriter.serialize(
        HTTPResponseWriter.failure(timeout), keepAlive: false, bodyless: false))
    lingeringClose()
  }

  /// Stops sending, then reads and drops what the client still sends (up to 1 MiB or 1 s), so
  /// closing does not reset the connection before the client has read the error response.
  func lingeringClose() {
    shutdown(socket, Int32(SHUT_WR))
    var scratch = [UInt8](repeating: 0, count: 16_384)
    let deadline = monotonicSeconds() + 1
    var total = 0
    while total < 1 << 20, monotonicSeconds() < deadline {
      let count = scratch.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
      if count <= 0 { break }
      total += count
    }
  }

  /// Writes all of `bytes`; false when the peer is gone or stopped reading for `writeTimeout`.
  func write(_ bytes: [UInt8]) -> Bool {
    bytes.withUnsafeBytes { buffer in
      var offset = 0
      while offset < buffer.count {
        guard let base = buffer.baseAddress else { return false }
        let sent = send(socket, base + offset, buffer.count - offset, Int32(MSG_NOSIGNAL))
        if sent > 0 {
          offset += sent
        } else if sent < 0 && errno == EINTR {
          continue
        } else {
          return false
        }
      }
      return true
    }
  }
}

/// Seconds on a clock that never jumps.
func monotonicSeconds() -> Double {
  var spec = timespec()
  clock_gettime(CLOCK_MONOTONIC, &spec)
  return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
}
