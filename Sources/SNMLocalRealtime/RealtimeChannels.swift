import Foundation
import SNMGateway
import SNMWire
import Synchronization

/// Realtime's channel protocol over a socket's Phoenix messages: heartbeats, joins (token,
/// config, limits), leaves, broadcasts (self, ack), presence (track, untrack), token refreshes.
/// Runs on the socket's queue, one message at a time.
struct RealtimeChannels: Sendable {
  let hub: RealtimeHub
  let tokens: RealtimeTokens
  let limits: RealtimeLimits
  /// The project's users and joins a second.
  let admission: RealtimeAdmission
  /// postgres_changes (nil: not served).
  let changes: RealtimeChanges?
  /// Checks a private channel's policies on `realtime.messages` for a role and claims: read,
  /// write; nil when the database could not answer.
  let authorize:
    @Sendable (_ topic: String, _ claims: JSONValue, _ presence: Bool) -> RealtimeAccess?

  /// Handles one whole WebSocket message of `socket`.
  func handle(_ message: WebSocketMessage, on socket: RealtimeSocket) {
    let frame: PhoenixFrame
    do {
      frame = try socket.codec.decode(message, from: .toServer)
    } catch {
      socket.sendClose(.invalidPayload, reason: error.message)
      return
    }
    switch frame {
    case .message(let message): handle(message, on: socket)
    case .userBroadcast(let broadcast): userBroadcast(broadcast, on: socket)
    case .binaryPush, .binaryReply, .binaryBroadcast: break
    }
  }

  private func handle(_ message: PhoenixMessage, on socket: RealtimeSocket) {
    if message.topic == "phoenix" {
      if message.event == "heartbeat" {
        socket.push(.reply(to: message, status: "ok", response: [:]))
      }
      return
    }
    switch message.event {
    case "phx_join": join(message, on: socket)
    case "phx_leave":
      guard let channel = socket.channel(message.topic) else {
        return unmatched(message, on: socket)
      }
      socket.push(.reply(to: message, status: "ok", response: [:]))
      leave(channel, on: socket)
    case "broadcast": broadcast(message, on: socket)
    case "presence": presence(message, on: socket)
    case "access_token": refresh(message, on: socket)
    default:
      // Realtime counts and ignores other events of a joined channel.
      if socket.channel(message.topic) == nil { unmatched(message, on: socket) }
    }
  }

  /// Phoenix's answer to a message for a topic the socket has not joined.
  private func unmatched(_ message: PhoenixMessage, on socket: RealtimeSocket) {
    socket.push(.reply(to: message, status: "error", response: ["reason": "unmatched topic"]))
  }

  private func refuse(_ message: PhoenixMessage, _ reason: String, on socket: RealtimeSocket) {
    socket.push(.reply(to: message, status: "error", response: ["reason": .string(reason)]))
  }

  private func join(_ message: PhoenixMessage, on socket: RealtimeSocket) {
    guard message.topic.hasPrefix("realtime:") else { return unmatched(message, on: socket) }
    guard message.topic != "realtime:" else {
      return refuse(message, "TopicNameRequired: You must provide a topic name", on: socket)
    }
    let config = RealtimeJoinConfig(payload: message.payload)
    if let refusal = admission.checkJoin(socket) {
      refuse(message, refusal.reason, on: socket)
      // Realtime disconnects the socket that joins past the joins a second.
      if refusal == .joins { socket.sendClose(.normal, reason: "") }
      return
    }
    let existing = socket.channels
    if existing[message.topic] == nil, existing.count >= limits.channelsPerClient {
      return refuse(message, "ChannelRateLimitReached: Too many channels", on: socket)
    }
    var claims = socket.connectClaims
    if let token = config.accessToken, !token.hasPrefix("sb_") {
      switch tokens.claims(of: token) {
      case .success(let verified): claims = verified
      case .failure(let refusal): return refuse(message, refusal.reason, on: socket)
      }
    }
    var canWrite = true
    if config.isPrivate {
      guard let access = authorize(message.topic, claims, config.presenceEnabled) else {
        return refuse(
          message, "UnknownErrorOnChannel: the database could not check the channel's policies",
          on: socket)
      }
      guard access.read else {
        return refuse(
          message,
          "Unauthorized: You do not have permissions to read from this Channel topic: \(message.topic)",
          on: socket)
      }
      canWrite = access.write
    }
    // A second join of a topic replaces the first (Phoenix closes the old channel).
    if let old = existing[message.topic] { leave(old, on: socket, notify: false) }
    let key = config.presenceKey.isEmpty ? UUID().uuidString.lowercased() : config.presenceKey
    let channel = RealtimeChannel(
      topic: message.topic, joinRef: message.joinRef ?? message.ref, config: config, claims: claims,
      canWrite: canWrite, presenceKey: key)
    socket.setChannel(message.topic, channel)
    hub.join(socket, channel)
    admission.joined(socket)
    endAtExpiry(channel, on: socket)
    // Messages the database sends (`realtime.send`) come through the change stream.
    _ = changes?.ensureStream()
    var bindings: [JSONValue] = []
    for entry in config.postgresChanges {
      var echoed = entry
      echoed["id"] = .int(Self.changeID(entry))
      bindings.append(.object(echoed))
    }
    socket.push(.reply(to: message, status: "ok", response: ["postgres_changes": .array(bindings)]))
    if config.presenceEnabled {
      socket.push(
        PhoenixMessage(
          joinRef: channel.joinRef, ref: nil, topic: channel.topic, event: "presence_state",
          payload: hub.presenceState(channel.hubKey)))
    }
    if !config.postgresChanges.isEmpty {
      // Live once the bindings are registered with the stream: a write after this message is
      // delivered.
      let failure: String? =
        if let changes {
          changes.subscribe(
            socket: socket, topic: channel.topic, entries: config.postgresChanges, claims: claims)
        } else {
          "postgres_changes are not served by this project"
        }
      if let failure {
        pushSystem(
          channel, extension: "postgres_changes", status: "error", message: failure, on: socket)
      } else {
        pushSystem(
          channel, extension: "postgres_changes", status: "ok", message: "Subscribed to PostgreSQL",
          on: socket)
      }
    }
  }

  /// An id for a postgres_changes entry: the same entry always gets the same id (Realtime hashes
  /// the client's map).
  static func changeID(_ entry: JSONObject) -> Int {
    var hash: UInt32 = 2_166_136_261
    for byte in JSONValue.object(entry).serializedBytes() {
      hash = (hash ^ UInt32(byte)) &* 16_777_619
    }
    return Int(hash & 0x7FFF_FFFF)
  }

  private func leave(_ channel: RealtimeChannel, on socket: RealtimeSocket, notify: Bool = true) {
    socket.setChannel(channel.topic, nil)
    hub.leave(socket, channel)
    changes?.unsubscribe(socket: socket, topic: channel.topic)
    if notify {
      socket.push(
        PhoenixMessage(
          joinRef: channel.joinRef, ref: channel.joinRef, topic: channel.topic, event: "phx_close",
          payload: [:]))
    }
  }

  /// A socket gone: each of its channels leaves (presence leaves with it).
  func closed(_ socket: RealtimeSocket) {
    admission.closed(socket)
    changes?.unsubscribe(socket: socket, topic: nil)
    for channel in socket.channels.values {
      socket.setChannel(channel.topic, nil)
      hub.leave(socket, channel)
    }
  }

  private func broadcast(_ message: PhoenixMessage, on socket: RealtimeSocket) {
    guard let channel = socket.channel(message.topic) else { return unmatched(message, on: socket) }
    // On a private channel without the INSERT policy the message is dropped, and no reply is
    // sent, as Realtime does.
    guard channel.canWrite else { return }
    let size = message.payload.serializedBytes().count
    if size > limits.maxPayloadBytes {
      if channel.config.broadcastAck {
        socket.push(
          .reply(to: message, status: "error", response: ["reason": "payload_size_exceeded"]))
      }
      return
    }
    hub.broadcast(
      hubKey: channel.hubKey, topic: channel.topic, payload: message.payload, from: socket)
    if channel.config.broadcastAck { socket.push(.reply(to: message, status: "ok", response: [:])) }
  }

  private func userBroadcast(_ broadcast: PhoenixUserBroadcast, on socket: RealtimeSocket) {
    guard let channel = socket.channel(broadcast.topic), channel.canWrite else { return }
    let reply = PhoenixMessage(
      joinRef: broadcast.joinRef, ref: broadcast.ref, topic: broadcast.topic, event: "broadcast",
      payload: [:])
    if broadcast.payload.count > limits.maxPayloadBytes {
      if channel.config.broadcastAck {
        socket.push(
          .reply(to: reply, status: "error", response: ["reason": "payload_size_exceeded"]))
      }
      return
    }
    hub.broadcast(hubKey: channel.hubKey, broadcast, from: socket)
    if channel.config.broadcastAck { socket.push(.reply(to: reply, status: "ok", response: [:])) }
  }

  private func presence(_ message: PhoenixMessage, on socket: RealtimeSocket) {
    guard var channel = socket.channel(message.topic) else { return unmatched(message, on: socket) }
    // Realtime's per-channel presence limit: so many calls in a window that starts at the
    // first call after the last one ended.
    let now = monotonicSeconds()
    if channel.presenceWindowEnd.map({ now > $0 }) ?? true {
      channel.presenceCalls = 1
      channel.presenceWindowEnd = now + limits.presenceWindow
    } else if channel.presenceCalls >= limits.presenceCalls {
      pushSystem(
        channel, extension: "system", status: "error",
        message: "Client presence rate limit exceeded", on: socket)
      return leave(channel, on: socket)
    } else {
      channel.presenceCalls += 1
    }
    socket.setChannel(channel.topic, channel)
    switch message.payload["event"]?.stringValue {
    case "track":
      guard let payload = message.payload["payload"]?.objectValue else {
        return socket.push(
          .reply(
            to: message, status: "error",
            response: ["reason": "Presence track payload must be a map"]))
      }
      guard channel.canWrite else {
        return socket.push(
          .reply(
            to: message, status: "error",
            response: ["reason": "You do not have permissions to track presence"]))
      }
      let size = JSONValue.object(payload).serializedBytes().count
      // Realtime ends a channel whose track is larger than a payload may be.
      if size > limits.maxPayloadBytes {
        pushSystem(
          channel, extension: "system", status: "error", message: "Track message size exceeded",
          on: socket)
        return leave(channel, on: socket)
      }
      guard hub.track(socket, channel, payload: payload, size: size) else {
        return socket.push(
          .reply(
            to: message, status: "error",
            response: [
              "reason": .string(
                "PresenceLimitReached: the project's presence holds \(hub.presenceLimit) bytes at most"
              )
            ]))
      }
    case "untrack":
      hub.untrack(socket, channel)
    default:
      return socket.push(
        .reply(to: message, status: "error", response: ["reason": "Unknown presence event"]))
    }
    socket.push(.reply(to: message, status: "ok", response: [:]))
  }

  /// `access_token`: a new token for the channel; a refused one ends the channel with a
  /// `system` error. The same token, an `sb_` key or none changes nothing.
  private func refresh(_ message: PhoenixMessage, on socket: RealtimeSocket) {
    guard var channel = socket.channel(message.topic) else { return unmatched(message, on: socket) }
    guard let token = message.payload["access_token"]?.stringValue, !token.hasPrefix("sb_") else {
      return
    }
    switch tokens.claims(of: token) {
    case .success(let claims):
      channel.claims = claims
      if channel.config.isPrivate {
        guard let access = authorize(channel.topic, claims, channel.config.presenceEnabled),
          access.read
        else {
          pushSystem(
            channel, extension: "system", status: "error",
            message:
              "You do not have permissions to read from this Channel topic: \(channel.topic)",
            on: socket)
          return leave(channel, on: socket)
        }
        channel.canWrite = access.write
      }
      socket.setChannel(channel.topic, channel)
      hub.update(socket, channel)
      changes?.update(socket: socket, topic: channel.topic, claims: claims)
      endAtExpiry(channel, on: socket)
    case .failure(let refusal):
      pushSystem(
        channel, extension: "system", status: "error", message: refusal.message, on: socket)
      leave(channel, on: socket)
    }
  }

  /// Ends `channel` when its token's `exp` passes, as Realtime shuts a channel down then: a
  /// `system` error `Token has expired N seconds ago` and `phx_close`, after which nothing more
  /// reaches it. Checked on the socket's queue at `exp`, or in 5 minutes when that is sooner (as
  /// Realtime confirms a token); each check supersedes the channel's earlier one, so a socket
  /// that rejoins or refreshes again and again leaves no checks behind but its channels' last.
  private func endAtExpiry(_ channel: RealtimeChannel, on socket: RealtimeSocket) {
    guard let expiry = channel.claims["exp"]?.doubleValue else { return }
    var channel = channel
    channel.expiryCheck = Self.expiryChecks.add(1, ordering: .relaxed).newValue
    socket.setChannel(channel.topic, channel)
    let check = channel.expiryCheck
    let topic = channel.topic
    let wait = min(max(0, expiry - tokens.now()), 300)
    socket.queue.asyncAfter(deadline: .now() + wait) {
      guard let current = socket.channel(topic), current.expiryCheck == check,
        let currentExpiry = current.claims["exp"]?.doubleValue
      else { return }
      let now = tokens.now()
      guard currentExpiry <= now else { return endAtExpiry(current, on: socket) }
      pushSystem(
        current, extension: "system", status: "error",
        message: "Token has expired \(Int(now - currentExpiry)) seconds ago", on: socket)
      leave(current, on: socket)
    }
  }

  /// Ends a channel that received a broadcast while the project's events a second were past
  /// `max_events_per_second`, as Realtime does: `system` `Too many messages per second`, then
  /// `phx_close`. A channel joined again since is left alone.
  func endOverLimit(_ channel: RealtimeChannel, on socket: RealtimeSocket) {
    guard let current = socket.channel(channel.topic), current.joinRef == channel.joinRef else {
      return
    }
    pushSystem(
      current, extension: "system", status: "error", message: "Too many messages per second",
      on: socket)
    leave(current, on: socket)
  }

  /// The last expiry check handed out (``RealtimeChannel/expiryCheck``).
  private static let expiryChecks = Atomic<Int>(0)

  private func pushSystem(
    _ channel: RealtimeChannel, extension name: String, status: String, message: String,
    on socket: RealtimeSocket
  ) {
    socket.push(
      Self.system(
        topic: channel.topic, joinRef: channel.joinRef, extension: name, status: status,
        message: message))
  }

  /// Realtime's `system` message to a channel: `{"extension", "status", "message", "channel"}`.
  static func system(
    topic: String, joinRef: String?, extension name: String, status: String, message: String
  ) -> PhoenixMessage {
    let payload: JSONValue = [
      "extension": .string(name), "status": .string(status), "message": .string(message),
      "channel": .string(String(topic.dropFirst("realtime:".count))),
    ]
    return PhoenixMessage(
      joinRef: joinRef, ref: nil, topic: topic, event: "system", payload: payload)
  }
}
