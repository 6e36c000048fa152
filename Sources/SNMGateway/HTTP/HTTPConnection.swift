import Foundation
import SNMWire
import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// One accepted socket (non-blocking) and the requests arriving on it.
///
/// The event loop owns it while it waits for or reads a request; a worker owns it while it
/// answers one (``serve(_:limits:handler:)``), so its reader is only ever used by one thread at a
/// time (the lock is never contended).
final class HTTPConnection: Sendable {
  let socket: Int32
  let remoteAddress: String
  let reader: Mutex<HTTPRequestReader>
  /// The step the loop hands a worker with the connection.
  let handedOver = Mutex<HTTPRequestReader.Step?>(nil)
  /// What a worker could not send at once, for the loop to send as the client reads.
  let unsent = Mutex<HTTPUnsentAnswer?>(nil)
  /// The protocol the socket switched to (``HTTPUpgrade``): once the loop has forgotten the
  /// connection it gives the socket to it instead of closing it (not before: the descriptor
  /// must not be closed and reused while the loop still watches it).
  let upgraded = Mutex<HTTPUpgrade?>(nil)

  /// The memory and waiting workers streamed answers to clients that do not read may take.
  let held: HTTPHeldAnswers

  init(
    socket: Int32, remoteAddress: String, reader: sending HTTPRequestReader,
    held: HTTPHeldAnswers
  ) {
    self.socket = socket
    self.remoteAddress = remoteAddress
    self.reader = Mutex(reader)
    self.held = held
  }

  /// On a worker: answers `first` and any request already pipelined behind it, and gives a
  /// streamed body's sink what has arrived of it (what is still to come is the loop's to wait
  /// for: a worker never waits on a client's bytes). True when the connection goes back to the
  /// loop (it waits for the next request, or for the rest of one, or sends the rest of an answer
  /// the client did not take at once: `unsent`); false when it is to be closed.
  ///
  /// When `mayLinger` says no other request waits for a worker, the worker waits up to
  /// `limits.workerLinger` seconds for this client's next request before it hands the connection
  /// back: a client sending requests one after another is then answered without two thread
  /// hand-offs a request. The wait ends as soon as `busy` (a descriptor, -1 for none) becomes
  /// readable: another request waits for a worker.
  func serve(
    _ first: HTTPRequestReader.Step, limits: HTTPServerLimits, handler: HTTPServer.Handler,
    busy: Int32 = -1, mayLinger: () -> Bool = { false }
  ) -> Bool {
    reader.withLock { reader in
      var step = first
      var lingered = false
      while true {
        // Consumed: the request is moved out of the step, not copied (every path below ends
        // or gives `step` its next value).
        switch consume step {
        case .request(var request, let keepAlive):
          request.remoteAddress = remoteAddress
          request.peer = HTTPPeer(socket: socket)
          let response = handler(request)
          if let upgrade = response.upgrade {
            // Only a GET without a body is upgraded, so nothing of the new protocol is in the
            // reader (a client waits for the 101 before it sends).
            guard write(upgrade.head, limits: limits) else { return false }
            upgraded.withLock { $0 = upgrade }
            return false
          }
          switch respond(response, keepAlive: keepAlive, to: request, limits: limits) {
          case .sent: guard keepAlive else { return false }
          case .handedOver: return true
          case .failed: return false
          }
        case .streamed(var request, let sink, let keepAlive):
          request.remoteAddress = remoteAddress
          request.peer = HTTPPeer(socket: socket)
          let response = sink.finish(request)
          let keep = keepAlive && response.headers["Connection"]?.lowercased() != "close"
          switch respond(response, keepAlive: keep, to: request, limits: limits) {
          case .sent: guard keep else { return false }
          case .handedOver: return true
          case .failed: return false
          }
        case .answered(let response):
          _ = write(
            HTTPResponseWriter.serialize(response, keepAlive: false, bodyless: false),
            limits: limits)
          lingeringClose()
          return false
        case .failure(let failure):
          _ = write(
            HTTPResponseWriter.serialize(
              HTTPResponseWriter.failure(failure), keepAlive: false, bodyless: false),
            limits: limits)
          lingeringClose()
          return false
        case .planning, .flushing:
          break
        case .needMore:
          if reader.wantsContinue {
            reader.wantsContinue = false
            guard write(Array("HTTP/1.1 100 Continue\r\n\r\n".utf8), limits: limits) else {
              return false
            }
          }
          guard reader.isStreaming else {
            guard !lingered, !reader.hasPartialRequest, limits.workerLinger > 0, mayLinger(),
              waitForRequest(seconds: limits.workerLinger, unlessReadable: busy)
            else { return true }
            lingered = true
            switch receive(into: &reader, waitingUntil: monotonicSeconds()) {
            case .received: break
            case .closed: return false
            case .timedOut: return true
            }
            step = reader.next()
            if case .needMore = step { return true }
            lingered = false
            continue
          }
          // Reads on while the body's bytes are there; the loop waits for the rest.
          switch receive(into: &reader, waitingUntil: 0) {
          case .received: break
          case .closed: return false
          case .timedOut: return true
          }
        }
        step = reader.next()
      }
    }
  }

  enum Received { case received, closed, timedOut }

  /// Waits (on a worker) for bytes until `deadline` and hands them to `reader`.
  func receive(into reader: inout HTTPRequestReader, waitingUntil deadline: Double) -> Received {
    // Not zero-filled: recv writes what it returns, and only that much is read.
    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 65_536) { scratch in
      while true {
        let count = recv(socket, scratch.baseAddress, scratch.count, 0)
        if count > 0 {
          reader.append(UnsafeBufferPointer(rebasing: scratch[0..<count]))
          return .received
        }
        if count == 0 { return .closed }
        guard errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR else { return .closed }
        let left = deadline - monotonicSeconds()
        if left <= 0 { return .timedOut }
        // A wait that runs out is not a hang-up (the deadline above decides); a socket that
        // failed or closed makes the next recv say so.
        _ = wait(for: Int16(POLLIN), seconds: left)
      }
    }
  }

  enum Sent { case sent, handedOver, failed }

  /// Writes `response` (its head, then its body, its file or its stream). `.failed` when the
  /// peer is gone or a streamed body failed midway (the connection must then close: the client
  /// sees the answer cut short, never a complete one that lacks rows); `.handedOver` when the
  /// client did not take all of the answer at once: the rest is in `unsent`, for the loop to send
  /// as the client reads. A streamed body is produced here; what of it the client does not take
  /// at once is kept (``HTTPHeldAnswers``) while the producer runs on, so the worker waits on the
  /// producer, not on the client.
  func respond(
    _ response: HTTPResponse, keepAlive: Bool, to request: HTTPRequest, limits: HTTPServerLimits
  ) -> Sent {
    let bodyless = request.method == "HEAD"
    var rest = HTTPUnsentAnswer(
      bytes: HTTPResponseWriter.serialize(response, keepAlive: keepAlive, bodyless: bodyless),
      file: bodyless ? nil : response.bodyFile, keepAlive: keepAlive)
    guard let stream = response.bodyStream else { return handOver(&rest) }
    guard !bodyless else {
      stream.abandon()
      return handOver(&rest)
    }
    guard rest.send(on: socket) != .failed else {
      stream.abandon()
      return .failed
    }
    rest.reservation = held.reservation()
    var failed = false
    let finished = stream.produce { bytes in
      guard !failed else { return false }
      rest.append(HTTPResponseWriter.chunk(bytes))
      if !sendOrHold(&rest, limits: limits) { failed = true }
      return !failed
    }
    guard finished && !failed else { return .failed }
    rest.append(HTTPResponseWriter.lastChunk)
    return handOver(&rest)
  }

  /// Sends what the client takes of `rest` now; the rest is handed to the loop (`unsent`).
  func handOver(_ rest: inout HTTPUnsentAnswer) -> Sent {
    switch rest.send(on: socket) {
    case .done: return .sent
    case .failed: return .failed
    case .blocked:
      let taken = rest
      unsent.withLock { $0 = taken }
      return .handedOver
    }
  }

  /// A streamed answer's next chunk is in `rest`: sends what the client takes now and keeps the
  /// rest while ``HTTPHeldAnswers`` allows; past that waits for the client (up to the write
  /// timeout) only if few other workers already wait for theirs. False: the answer is cut (the
  /// client left, stopped reading, or read too slowly while workers were needed).
  func sendOrHold(_ rest: inout HTTPUnsentAnswer, limits: HTTPServerLimits) -> Bool {
    switch rest.send(on: socket) {
    case .done: return true
    case .failed: return false
    case .blocked: break
    }
    if rest.reservation?.hold(bytes: rest.pending) ?? false { return true }
    guard held.enterWaiting() else { return false }
    defer { held.leaveWaiting() }
    while true {
      guard wait(for: Int16(POLLOUT), seconds: limits.writeTimeout) else { return false }
      switch rest.send(on: socket) {
      case .done: return true
      case .failed: return false
      case .blocked:
        if rest.reservation?.hold(bytes: rest.pending) ?? false { return true }
      }
    }
  }

  /// 408: the request did not arrive within `requestTimeout` (or its body kept less than the
  /// minimum rate).
  static let lateRequestAnswer = HTTPResponseWriter.serialize(
    HTTPResponseWriter.failure(
      HTTPParseError(status: 408, message: "request not received in time")),
    keepAlive: false, bodyless: false)

  /// Stops sending, then reads and drops what the client still sends (up to 1 MiB or 1 s), so
  /// closing does not reset the connection before the client has read the error response.
  func lingeringClose() {
    shutdown(socket, Int32(SHUT_WR))
    var scratch = [UInt8](repeating: 0, count: 16_384)
    let deadline = monotonicSeconds() + 1
    var total = 0
    while total < 1 << 20 {
      let left = deadline - monotonicSeconds()
      guard left > 0 else { break }
      let count = scratch.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
      if count > 0 {
        total += count
      } else if count < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR) {
        guard wait(for: Int16(POLLIN), seconds: left) else { break }
      } else {
        break
      }
    }
  }

  /// Writes all of `bytes`; false when the peer is gone or stopped reading for `writeTimeout`.
  func write(_ bytes: [UInt8], limits: HTTPServerLimits) -> Bool {
    bytes.withUnsafeBytes { buffer in
      var offset = 0
      while offset < buffer.count {
        guard let base = buffer.baseAddress else { return false }
        let sent = send(socket, base + offset, buffer.count - offset, Int32(MSG_NOSIGNAL))
        if sent > 0 {
          offset += sent
        } else if sent < 0 && errno == EINTR {
          continue
        } else if sent < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) {
          guard wait(for: Int16(POLLOUT), seconds: limits.writeTimeout) else { return false }
        } else {
          return false
        }
      }
      return true
    }
  }

  /// Waits up to `seconds` for the client's next bytes; false on timeout, on error, or as soon as
  /// `other` is readable.
  func waitForRequest(seconds: Double, unlessReadable other: Int32) -> Bool {
    guard other >= 0 else { return wait(for: Int16(POLLIN), seconds: seconds) }
    var descriptors = [
      pollfd(fd: socket, events: Int16(POLLIN), revents: 0),
      pollfd(fd: other, events: Int16(POLLIN), revents: 0),
    ]
    let ready = poll(&descriptors, 2, Int32(max(0, seconds) * 1000) + 1)
    if ready < 0 && errno == EINTR { return true }
    return ready > 0 && descriptors[1].revents == 0 && descriptors[0].revents & Int16(POLLIN) != 0
  }

  /// Waits up to `seconds` for the socket to be ready for `events`; false on timeout or error.
  func wait(for events: Int16, seconds: Double) -> Bool {
    var descriptor = pollfd(fd: socket, events: events, revents: 0)
    let ready = poll(&descriptor, 1, Int32(max(0, seconds) * 1000) + 1)
    if ready < 0 && errno == EINTR { return true }
    return ready > 0 && descriptor.revents & Int16(POLLERR | POLLNVAL) == 0
  }
}

/// Seconds on a clock that never jumps.
package func monotonicSeconds() -> Double {
  var spec = timespec()
  clock_gettime(CLOCK_MONOTONIC, &spec)
  return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
}
