import Dispatch
import Foundation
import SNMWire
import Synchronization

/// Sends `http://` requests (for ``PlainHTTPTransport``) over kept-alive TCP connections: one
/// write and one blocking read per request on a thread of its own (on the caller's under
/// ``ExchangeThread/mayBlockCaller``), each answer's head parsed once.
///
/// ```swift
/// let client = PlainHTTPClient(maximumIdlePerHost: 6)
/// let answer = try await client.perform(request)   // PlainHTTPAnswer
/// ```
/// A kept connection the server has closed meanwhile is replaced and a read sent again, as curl
/// does; a write is never sent twice (``PlainHTTPFailure/unanswered``), and goes again only
/// when not a byte of it left this machine (``PlainHTTPFailure/notSent``). Cancelling the
/// calling task closes the connection at once. Throws ``PlainHTTPFailure``.
final class PlainHTTPClient: Sendable {
  private let kept: KeptConnections<PlainHTTPConnection>

  init(maximumIdlePerHost: Int) {
    kept = KeptConnections(maximumPerKey: maximumIdlePerHost)
  }

  /// What to send: the parts of an `http://` URL, the header fields and the body.
  struct Request: Sendable {
    var method: String
    /// Whether the request may go again on a new connection when the kept one closed before any
    /// of the answer (``TransportRequest/maySendAgain``: it reads); a write never does.
    var maySendAgain = true
    var host: String
    var port: Int
    /// Path and query as they go on the request line (`/rest/v1/t?id=eq.1`).
    var target: String
    var fields: [HTTPHeaders.Field]
    var body: Data?
    /// A body sent from disk after the head (`body` is then nil).
    var bodyFile: RequestBodyFile?
    /// Where a 2xx answer's body is written.
    var responseFile: String?
    /// Seconds the whole exchange may take (connecting, sending, every byte of the answer).
    var timeout: Double
    /// The largest body accepted (`.tooLarge` past it).
    var maximumBodyBytes = TransportRequest.defaultMaximumBodyBytes
    /// The answer holds a secret: the memory it is read into is zeroed when freed.
    var holdsSecrets = false
    /// Takes a 2xx body's elements as they are checked (the sending task's).
    var arriving: ArrivingElements?

    var hostField: String {
      // An IPv6 address goes in brackets (a byte test: Foundation's `contains` searches as text).
      let name = host.utf8.contains(UInt8(ascii: ":")) ? "[\(host)]" : host
      return port == 80 ? name : "\(name):\(port)"
    }

    /// The request as bytes: request line, `Host`, the fields, `Content-Length`, the body,
    /// written by SNMWire's encoder (a value can never split the head).
    func encoded() -> [UInt8] {
      encoded(hostField: hostField)
    }

    /// `encoded()` with the `Host` value already made (the connection's key).
    func encoded(hostField: String) -> [UInt8] {
      // Written field by field into one buffer of the right size (no header list built first).
      var bytes: [UInt8] = []
      var size = 64 + method.utf8.count + target.utf8.count + hostField.utf8.count
      for field in fields { size += field.name.utf8.count + field.value.utf8.count + 4 }
      bytes.reserveCapacity(size + (body?.count ?? 0))
      HTTPEncoder.appendRequestLine(method: method, target: target, to: &bytes)
      HTTPEncoder.appendField(name: "Host", value: hostField, to: &bytes)
      for field in fields {
        HTTPEncoder.appendField(name: field.name, value: field.value, to: &bytes)
      }
      if let bodyFile {
        HTTPEncoder.appendField(
          name: "Content-Length", value: String(bodyFile.length), to: &bytes)
      } else if body != nil || method == "POST" || method == "PUT" || method == "PATCH" {
        HTTPEncoder.appendField(
          name: "Content-Length", value: String(body?.count ?? 0), to: &bytes)
      }
      HTTPEncoder.appendEnd(to: &bytes)
      if let body { bytes.append(contentsOf: body) }
      return bytes
    }
  }

  /// Sends `request` and returns the answer (any status).
  func perform(_ request: Request) async throws(PlainHTTPFailure) -> PlainHTTPAnswer {
    let handle = PlainHTTPHandle()
    if ExchangeThread.mayBlockCaller {
      // The caller waits for nothing else: exchange on its thread, no hand-off there and back.
      let result = await withTaskCancellationHandler {
        run(request, handle: handle)
      } onCancel: {
        handle.cancel()
      }
      return try result.get()
    }
    // A serial queue of its own is "overcommit": the blocking read gets a thread of its own
    // instead of one of the few that also run Swift tasks (the spinner, signal watchers).
    let queue = DispatchQueue(label: "snm.plain-http")
    let result = await withTaskCancellationHandler {
      await withCheckedContinuation {
        (continuation: CheckedContinuation<Result<PlainHTTPAnswer, PlainHTTPFailure>, Never>) in
        queue.async { continuation.resume(returning: self.run(request, handle: handle)) }
      }
    } onCancel: {
      handle.cancel()
    }
    return try result.get()
  }

  private func run(_ request: Request, handle: PlainHTTPHandle) -> Result<
    PlainHTTPAnswer, PlainHTTPFailure
  > {
    let key = request.hostField
    let deadline = ContinuousClock.now + .seconds(max(request.timeout, 0.001))
    var bytes = request.encoded(hostField: key)
    // Every request carries the key and, signed in, the user's token (a sign-in its password):
    // the memory that held them is zeroed before it is freed.
    defer { WipedMemory.zero(&bytes) }
    while true {
      if handle.isCancelled { return .failure(.cancelled) }
      var connection = kept.take(key)
      if let idle = connection, idle.spokeWhileIdle {
        idle.close()
        connection = nil
      }
      let reused = connection != nil
      if connection == nil {
        do {
          connection = try PlainHTTPConnection.open(
            host: request.host, port: request.port, deadline: deadline)
        } catch {
          return .failure(error)
        }
      }
      guard let connection else { return .failure(.unreachable("connection refused")) }
      handle.attach(connection)
      do {
        let answer = try connection.exchange(
          bytes, file: request.bodyFile, isHead: request.method == "HEAD",
          maximumBodyBytes: request.maximumBodyBytes, saveTo: request.responseFile,
          arriving: request.arriving, holdsSecrets: request.holdsSecrets, deadline: deadline)
        handle.detach()
        if answer.keepAlive && !handle.isCancelled {
          kept.keep(connection, key: key)?.close()
        } else {
          connection.close()
        }
        return .success(answer)
      } catch {
        handle.detach()
        connection.close()
        // Not a byte of the request left this machine: it goes again on a new connection,
        // whatever its method (the reset came after the idle check, before the send).
        if error == .notSent && reused { continue }
        guard error == .closedEarly(receivedNothing: true) else { return .failure(error) }
        // Not a byte of an answer: a write is not sent again (the server may have applied it and
        // closed); a read on a kept connection the server closed goes again on a new one.
        if request.maySendAgain && reused { continue }
        return .failure(.unanswered)
      }
    }
  }

}

/// The connection a request is using, shared with the cancellation handler (which may run first).
final class PlainHTTPHandle: Sendable {
  private struct State {
    var connection: PlainHTTPConnection?
    var cancelled = false
  }

  private let state = Mutex(State())

  var isCancelled: Bool { state.withLock { $0.cancelled } }

  func attach(_ connection: PlainHTTPConnection) {
    let cancelled = state.withLock { state in
      state.connection = connection
      return state.cancelled
    }
    if cancelled { connection.cancel() }
  }

  func detach() {
    state.withLock { $0.connection = nil }
  }

  func cancel() {
    let connection = state.withLock { state in
      state.cancelled = true
      return state.connection
    }
    connection?.cancel()
  }
}
