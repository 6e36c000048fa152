import Foundation
import SNMNetwork
import SNMWire
import Synchronization

/// A Phoenix Channels client (protocol 2.0.0) on one WebSocket to a project's Realtime: joins
/// with join refs, replies matched to pushes by ref, a heartbeat every 25 s, the access token
/// pushed to every joined channel when the session refreshes.
///
/// ```swift
/// let socket = try await RealtimeSocket.open(projectURL: url, apikey: key) { event in ... }
/// let reply = try await socket.join("realtime:todos", payload: config.joinPayload(accessToken: t))
/// try await socket.push("realtime:room1", event: "broadcast", payload: message)
/// socket.close()
/// ```
/// Every message the server pushes (postgres_changes, broadcast, presence, system, phx_error,
/// phx_close) goes to `onEvent` in arrival order, kind-4 binary broadcasts as their JSON
/// `broadcast` payload; replies go to the push that asked. A reply for a ref nobody asked
/// for is dropped; a frame that does not decode ends the socket with `.protocolError`.
public final class RealtimeSocket: Sendable {
  /// What the socket hands over.
  public enum Event: Sendable {
    case message(PhoenixMessage)
    /// The socket is over (nil: closed by this side).
    case ended(RealtimeError?)
  }

  /// How long a push waits for its reply.
  public static let replyTimeout: Duration = .seconds(10)
  /// How often the heartbeat goes.
  public static let heartbeatInterval: Duration = .seconds(25)

  /// The heartbeat: sent `every` so long, and a server that does not answer it within `timeout`
  /// is taken for dead (the socket is closed, and ends with `.noReply` for the heartbeat).
  public struct Heartbeat: Sendable, Equatable {
    public var every: Duration
    public var timeout: Duration

    /// Realtime's clients': every 25 s, answered within 10 s.
    public static let standard = Heartbeat(every: heartbeatInterval, timeout: replyTimeout)
  }

  /// A message of more values than Realtime's largest payload (3,000 KB: 1,536,000 values at most,
  /// a digit and a comma each) ends the socket: parsed, each value takes tens of bytes, and a
  /// 16 MiB message of them took 480 MiB.
  static let maximumValues = 1_600_000
  private let codec = PhoenixCodec(version: .v2, maximumValues: maximumValues)
  private let state = Mutex(State())
  private let socket = Mutex<WebSocketConnection?>(nil)

  private struct State {
    var nextRef = 1
    var pending: [String: CheckedContinuation<Result<JSONValue, RealtimeError>, Never>] = [:]
    /// Joined topics and their join refs.
    var joined: [String: String] = [:]
    var ended: RealtimeError??
    /// Why this side closed the socket (a message that did not decode, a heartbeat not
    /// answered): why it ended.
    var closedBecause: RealtimeError?
    var heartbeat: Task<Void, Never>?
  }

  private init() {}

  /// Opens the socket of the project at `projectURL` (`http(s)://...`); for `https://` over TLS,
  /// trusting `certificateAuthorities` (a PEM file, as `--cacert`; nil for the system's).
  public static func open(
    projectURL: String, apikey: String, timeout: Duration = .seconds(10),
    certificateAuthorities: String? = nil, heartbeat: Heartbeat = .standard,
    onEvent: @escaping @Sendable (Event) -> Void
  ) async throws(RealtimeError) -> RealtimeSocket {
    let client = RealtimeSocket()
    let url = RealtimeEndpoint.socketURL(projectURL: projectURL, apikey: apikey)
    let connection: WebSocketConnection
    do {
      connection = try await WebSocketConnection.open(
        url: url, headers: [("apikey", apikey)], timeout: timeout,
        certificateAuthorities: certificateAuthorities
      ) { [weak client] event in
        client?.receive(event, onEvent: onEvent)
      }
    } catch {
      throw .socket(error)
    }
    client.socket.withLock { $0 = connection }
    client.startHeartbeat(heartbeat)
    return client
  }

  /// Joins `topic`; returns the reply's `response`.
  ///
  /// - Throws: `.refused` with the server's reason, `.noReply`, `.socket`.
  public func join(_ topic: String, payload: JSONValue, timeout: Duration = replyTimeout)
    async throws(RealtimeError) -> JSONValue
  {
    let joinRef = state.withLock { state in
      defer { state.nextRef += 1 }
      return String(state.nextRef)
    }
    state.withLock { $0.joined[topic] = joinRef }
    do {
      return try await push(
        topic, event: "phx_join", payload: payload, joinRef: joinRef, ref: joinRef,
        timeout: timeout)
    } catch {
      state.withLock { _ = $0.joined.removeValue(forKey: topic) }
      throw error
    }
  }

  /// Leaves `topic` (its reply awaited, a refusal ignored: the channel is gone either way).
  public func leave(_ topic: String) async {
    guard state.withLock({ $0.joined[topic] }) != nil else { return }
    _ = try? await push(topic, event: "phx_leave", payload: [:], timeout: .seconds(5))
    state.withLock { _ = $0.joined.removeValue(forKey: topic) }
  }

  /// Sends `event` on a topic and waits for its reply's `response`.
  public func push(
    _ topic: String, event: String, payload: JSONValue, timeout: Duration = replyTimeout
  ) async throws(RealtimeError) -> JSONValue {
    try await push(
      topic, event: event, payload: payload, joinRef: state.withLock { $0.joined[topic] },
      timeout: timeout)
  }

  /// Pushes the refreshed access token to every joined channel (Realtime re-checks its claims).
  public func updateAccessToken(_ token: String) {
    let topics = state.withLock { Array($0.joined) }
    for (topic, joinRef) in topics {
      send(
        topic, event: "access_token", payload: ["access_token": .string(token)], joinRef: joinRef)
    }
  }

  /// Closes the socket (normal closure); `onEvent` gets `.ended(nil)`.
  public func close() {
    let task = state.withLock { state -> Task<Void, Never>? in
      defer { state.heartbeat = nil }
      return state.heartbeat
    }
    task?.cancel()
    socket.withLock { $0 }?.close()
  }

  private func push(
    _ topic: String, event: String, payload: JSONValue, joinRef: String?, ref: String? = nil,
    timeout: Duration
  ) async throws(RealtimeError) -> JSONValue {
    let ref =
      ref
      ?? state.withLock { state in
        defer { state.nextRef += 1 }
        return String(state.nextRef)
      }
    let result = await withCheckedContinuation {
      (continuation: CheckedContinuation<Result<JSONValue, RealtimeError>, Never>) in
      let ended = state.withLock { state -> RealtimeError?? in
        if let ended = state.ended { return ended }
        state.pending[ref] = continuation
        return nil
      }
      if let ended {
        continuation.resume(returning: .failure(ended ?? .socket(.closed(code: nil, reason: ""))))
        return
      }
      send(topic, event: event, payload: payload, joinRef: joinRef, ref: ref)
      Task { [weak self] in
        try? await Task.sleep(for: timeout)
        self?.resolve(
          ref,
          .failure(
            .noReply(topic: topic, event: event, seconds: Int(timeout.components.seconds))))
      }
    }
    let response = try result.get()
    return response
  }

  private func send(
    _ topic: String, event: String, payload: JSONValue, joinRef: String?, ref: String? = nil
  ) {
    let ref =
      ref
      ?? state.withLock { state in
        defer { state.nextRef += 1 }
        return String(state.nextRef)
      }
    let message = PhoenixMessage(
      joinRef: joinRef, ref: ref, topic: topic, event: event, payload: payload)
    let text = codec.encode(message, to: .toServer)
    do {
      try socket.withLock { $0 }?.send(.text(text))
    } catch {
      resolve(ref, .failure(.socket(error)))
    }
  }

  private func resolve(_ ref: String, _ result: Result<JSONValue, RealtimeError>) {
    let continuation = state.withLock { $0.pending.removeValue(forKey: ref) }
    continuation?.resume(returning: result)
  }

  private func startHeartbeat(_ heartbeat: Heartbeat) {
    let task = Task { [weak self] in
      while !Task.isCancelled {
        try? await Task.sleep(for: heartbeat.every)
        guard !Task.isCancelled, let self else { return }
        do throws(RealtimeError) {
          _ = try await self.push(
            "phoenix", event: "heartbeat", payload: [:], joinRef: nil, timeout: heartbeat.timeout)
        } catch {
          if case .noReply = error {
            // A server that stopped answering (hung, or gone without closing the connection):
            // the socket ends now, saying so, rather than waiting on it forever.
            self.state.withLock { $0.closedBecause = error }
            self.socket.withLock { $0 }?.close(code: .goingAway, reason: "heartbeat timeout")
          }
          return
        }
      }
    }
    state.withLock { $0.heartbeat = task }
  }

  private func receive(_ event: WebSocketConnection.Event, onEvent: @Sendable (Event) -> Void) {
    switch event {
    case .ended(let error):
      let (ending, waiting) = state.withLock { state in
        // A frame this side could not read closed the socket: that is why it ended.
        let ending = state.closedBecause ?? error.map(RealtimeError.socket)
        state.ended = .some(ending)
        state.heartbeat?.cancel()
        defer { state.pending = [:] }
        return (ending, Array(state.pending.values))
      }
      for continuation in waiting {
        continuation.resume(returning: .failure(ending ?? .socket(.closed(code: nil, reason: ""))))
      }
      onEvent(.ended(ending))
    case .message(let message):
      // After a frame this side could not read, the socket is closing: what the server sent
      // after it is not taken.
      guard state.withLock({ $0.closedBecause == nil }) else { return }
      let frame: PhoenixFrame
      do {
        frame = try codec.decode(message, from: .toClient)
      } catch {
        state.withLock { $0.closedBecause = .protocolError(error.message) }
        socket.withLock { $0 }?.close(code: .unsupportedData, reason: "")
        return
      }
      switch frame {
      case .message(let message):
        if message.event == "phx_reply", let ref = message.ref {
          let status = message.payload["status"]?.stringValue
          let response = message.payload["response"] ?? .null
          if status == "ok" {
            resolve(ref, .success(response))
          } else {
            let reason =
              response["reason"]?.stringValue ?? response.serialized()
            resolve(ref, .failure(.refused(topic: message.topic, reason: reason)))
          }
          return
        }
        onEvent(.message(message))
      case .userBroadcast(let broadcast):
        guard let payload = broadcast.jsonBroadcastPayload else { return }
        onEvent(
          .message(
            PhoenixMessage(
              joinRef: nil, ref: nil, topic: broadcast.topic, event: "broadcast",
              payload: payload)))
      case .binaryPush, .binaryReply, .binaryBroadcast:
        return  // raw-byte payloads: nothing snm subscribes to sends them
      }
    }
  }
}
