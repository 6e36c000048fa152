import Foundation
import SNMGateway
import SNMWire

/// `/realtime/v1`: the WebSocket (`/realtime/v1/websocket?apikey=…&vsn=…`, Phoenix 1.0.0 and
/// 2.0.0) and `POST /realtime/v1/api/broadcast`, on the project's one port.
///
/// The gateway hands it every request unchecked (`.open`): the handshake's refusals are
/// Realtime's (`{"error": …}` with 401, 400 for a `vsn` it does not speak), and the broadcast
/// endpoint takes the key or a Bearer token.
public final class RealtimeService: GatewayService {
  public var prefix: String { "/realtime/v1" }
  public var admission: GatewayAdmission { .open }
  let tokens: RealtimeTokens
  let hub: RealtimeHub
  let channels: RealtimeChannels
  let loop: RealtimeSocketLoop
  let changes: RealtimeChanges?
  let users: RealtimeAdmission

  /// `apiKeyClaims` gives the claims of one of the project's keys, `verify` checks a JWT;
  /// `authorize` probes a private channel's policies (nil: private channels are refused).
  package init(
    apiKeyClaims: @escaping @Sendable (String) -> JSONValue?,
    verify: @escaping @Sendable (String) -> Result<JSONValue, JWTError>,
    now: @escaping @Sendable () -> Double = { Date().timeIntervalSince1970 },
    limits: RealtimeLimits = RealtimeLimits(),
    hub: RealtimeHub = RealtimeHub(),
    changes: RealtimeChanges? = nil,
    authorize: (@Sendable (String, JSONValue, Bool) -> RealtimeAccess?)? = nil
  ) {
    let tokens = RealtimeTokens(apiKeyClaims: apiKeyClaims, verify: verify, now: now)
    self.tokens = tokens
    self.hub = hub
    let admission = RealtimeAdmission(limits: limits)
    users = admission
    let channels = RealtimeChannels(
      hub: hub, tokens: tokens, limits: limits, admission: admission, changes: changes,
      authorize: authorize ?? { _, _, _ in nil })
    hub.onEventsLimit { socket, channel in
      socket.queue.async { channels.endOverLimit(channel, on: socket) }
    }
    self.changes = changes
    self.channels = channels
    loop = RealtimeSocketLoop(
      unsentLimit: limits.unsentBytes,
      onMessage: { socket, message in
        socket.queue.async { channels.handle(message, on: socket) }
      },
      onClose: { socket in
        socket.queue.async { channels.closed(socket) }
      })
  }

  /// Closes every socket (1001) and ends the change stream.
  public func stop() {
    loop.stop()
    changes?.stop()
  }

  /// After ``stop()``, once nothing can open a socket: drops the change stream's slot, waiting
  /// (up to 3 s) for its connection to close.
  public func release() {
    changes?.release()
  }

  public func respond(_ request: HTTPRequest, caller: GatewayCaller) -> HTTPResponse {
    let path = request.path.hasSuffix("/") ? String(request.path.dropLast()) : request.path
    switch path {
    case "/realtime/v1/websocket": return upgrade(request)
    case "/realtime/v1/api/broadcast":
      guard request.method == "POST" else { return Self.error(405, "Method not allowed") }
      return broadcast(request)
    default: return Self.error(404, "Not found")
    }
  }

  static func error(_ status: Int, _ message: String) -> HTTPResponse {
    .json(status: status, ["error": .string(message)])
  }

  /// The handshake: the API key (`x-api-key` wins over `apikey`), `vsn`, then the 101.
  private func upgrade(_ request: HTTPRequest) -> HTTPResponse {
    let key: String
    do throws(WebSocketHandshakeError) {
      key = try WebSocketHandshake.checkRequest(
        HTTPRequestHead(method: request.method, target: request.target, headers: request.headers))
    } catch {
      var response = Self.error(error.status, error.message)
      if error.status == 426 { response.headers["Sec-WebSocket-Version"] = "13" }
      return response
    }
    guard
      let apiKey = request.headers["x-api-key"] ?? request.queryValue("apikey")
        ?? request.headers["apikey"],
      !apiKey.isEmpty
    else { return Self.error(401, "API key is missing") }
    let claims: JSONValue
    switch tokens.connectClaims(apiKey) {
    case .success(let verified): claims = verified
    case .failure(let refusal): return Self.error(401, refusal.message)
    }
    if let refusal = users.handshakeRefusal() { return Self.error(429, refusal) }
    let vsn = request.queryValue("vsn")
    guard let version = PhoenixVersion(vsn: vsn) else {
      return Self.error(400, "unsupported vsn \(vsn ?? ""): 1.0.0 and 2.0.0 are spoken")
    }
    var response = HTTPResponse(status: 101)
    let loop = self.loop
    response.upgrade = HTTPUpgrade(fields: WebSocketHandshake.acceptFields(key: key)) {
      descriptor in
      loop.adopt(
        RealtimeSocket(descriptor: descriptor, version: version, connectClaims: claims, loop: loop))
    }
    return response
  }

  /// `POST /realtime/v1/api/broadcast` `{"messages": [{"topic", "event", "payload", "private"}]}`:
  /// 202 once delivered; a private message the sender's policies refuse is dropped (still 202).
  private func broadcast(_ request: HTTPRequest) -> HTTPResponse {
    let bearer = request.headers["Authorization"].flatMap { value -> String? in
      let parts = value.split(separator: " ", maxSplits: 1)
      return parts.count == 2 && parts[0].lowercased() == "bearer" ? String(parts[1]) : nil
    }
    guard let credential = bearer ?? request.headers["apikey"] ?? request.queryValue("apikey"),
      case .success(let claims) = tokens.connectClaims(credential)
    else { return .json(status: 401, ["message": "Unauthorized"]) }
    guard let body = try? JSONValue(parsing: request.body),
      let messages = body["messages"]?.arrayValue
    else {
      return .json(
        status: 422,
        ["message": "Unprocessable Entity", "errors": ["messages": ["can't be blank"]]])
    }
    var parsed: [(topic: String, event: String, payload: JSONValue, isPrivate: Bool)] = []
    for (index, message) in messages.enumerated() {
      guard let topic = message["topic"]?.stringValue, !topic.isEmpty,
        let event = message["event"]?.stringValue, let payload = message["payload"],
        payload.objectValue != nil
      else {
        return .json(
          status: 422,
          [
            "message": "Unprocessable Entity",
            "errors": [
              "messages": .string("message \(index) needs topic, event and an object payload")
            ],
          ])
      }
      parsed.append((topic, event, payload, RealtimeJoinConfig.flag(message["private"])))
    }
    // Realtime's check of the events a second before a batch.
    let average = hub.events.average
    if average > Double(hub.events.limit) {
      return .json(status: 429, ["message": "You have exceeded your rate limit"])
    }
    if Double(parsed.count) + average > Double(hub.events.limit) {
      return .json(
        status: 429,
        ["message": "Too many messages to broadcast, please reduce the batch size"])
    }
    for message in parsed {
      let topic = "realtime:" + message.topic
      if message.isPrivate {
        guard let access = channels.authorize(topic, claims, false), access.write else { continue }
      }
      let payload: JSONValue = [
        "type": "broadcast", "event": .string(message.event), "payload": message.payload,
      ]
      hub.broadcast(
        hubKey: RealtimeChannel.hubKey(topic, isPrivate: message.isPrivate), topic: topic,
        payload: payload, from: nil)
    }
    return HTTPResponse(status: 202)
  }
}
