import Foundation
import SNMNetwork
import SNMTestSupport
import SNMWire
import Testing

@testable import SNMSupabase

/// The Phoenix client against a loopback Phoenix server speaking SNMWire's codec: joins and
/// replies by ref, pushes in order, the access token pushed on refresh, and hostile servers
/// (issue 36: a clear error, never a crash).
@Suite struct RealtimeSocketTests {
  /// The events a socket hands over, as a stream the test reads in order.
  static func open(_ server: LoopbackPhoenixServer) async throws
    -> (RealtimeSocket, AsyncStream<RealtimeSocket.Event>)
  {
    let (stream, continuation) = AsyncStream.makeStream(of: RealtimeSocket.Event.self)
    let socket = try await RealtimeSocket.open(projectURL: server.url, apikey: "anon-key") {
      continuation.yield($0)
      if case .ended = $0 { continuation.finish() }
    }
    return (socket, stream)
  }

  static let config = RealtimeChannelConfig(
    postgresChanges: [.init(event: "INSERT", schema: "public", table: "todos")])

  @Test func joinIsAnsweredByRefAndPushesArriveInOrder() async throws {
    let server = try LoopbackPhoenixServer { message in
      guard message.event == "phx_join" else { return [] }
      return [
        LoopbackPhoenixServer.ok(message, ["postgres_changes": [["id": 7]]]),
        .message(
          PhoenixMessage(
            joinRef: message.joinRef, ref: nil, topic: message.topic, event: "system",
            payload: [
              "extension": "postgres_changes", "status": "ok",
              "message": "Subscribed to PostgreSQL",
            ])),
        .message(
          PhoenixMessage(
            joinRef: nil, ref: nil, topic: message.topic, event: "postgres_changes",
            payload: ["ids": [7], "data": ["type": "INSERT", "record": ["id": 1]]])),
      ]
    }
    defer { server.stop() }
    let (socket, events) = try await Self.open(server)
    let response = try await socket.join(
      "realtime:todos", payload: Self.config.joinPayload(accessToken: "token"))
    #expect(response["postgres_changes"]?[0]?["id"]?.intValue == 7)
    var seen: [String] = []
    for await event in events {
      guard case .message(let message) = event else { break }
      seen.append(message.event)
      if seen.count == 2 { break }
    }
    #expect(seen == ["system", "postgres_changes"])
    let join = try #require(server.messages.first)
    #expect(join.topic == "realtime:todos" && join.joinRef == join.ref)
    #expect(join.payload["access_token"]?.stringValue == "token")
    socket.close()
  }

  @Test func aRefusedJoinSaysTheServersReason() async throws {
    let server = try LoopbackPhoenixServer { message in
      [
        .message(
          PhoenixMessage(
            joinRef: message.joinRef, ref: message.ref, topic: message.topic,
            event: "phx_reply",
            payload: [
              "status": "error",
              "response": ["reason": "Unauthorized: You do not have permissions to read"],
            ]))
      ]
    }
    defer { server.stop() }
    let (socket, _) = try await Self.open(server)
    await #expect(
      throws: RealtimeError.refused(
        topic: "realtime:room1", reason: "Unauthorized: You do not have permissions to read")
    ) {
      _ = try await socket.join("realtime:room1", payload: [:])
    }
    socket.close()
  }

  @Test func aReplyForARefNobodyAskedForIsDropped() async throws {
    let server = try LoopbackPhoenixServer { message in
      [
        .message(
          PhoenixMessage(
            joinRef: "999", ref: "999", topic: message.topic, event: "phx_reply",
            payload: ["status": "error", "response": ["reason": "stray"]])),
        LoopbackPhoenixServer.ok(message),
      ]
    }
    defer { server.stop() }
    let (socket, _) = try await Self.open(server)
    _ = try await socket.join("realtime:room1", payload: [:])
    _ = try await socket.push(
      "realtime:room1", event: "broadcast",
      payload: ["type": "broadcast", "event": "e", "payload": [:]])
    socket.close()
  }

  @Test func theAccessTokenIsPushedToEveryJoinedChannel() async throws {
    let server = try LoopbackPhoenixServer { message in
      switch message.event {
      case "phx_join": return [LoopbackPhoenixServer.ok(message)]
      case "access_token":
        return [
          .message(
            PhoenixMessage(
              joinRef: nil, ref: nil, topic: message.topic, event: "token_seen",
              payload: message.payload))
        ]
      default: return []
      }
    }
    defer { server.stop() }
    let (socket, events) = try await Self.open(server)
    _ = try await socket.join("realtime:room1", payload: [:])
    socket.updateAccessToken("refreshed")
    for await event in events {
      guard case .message(let message) = event else {
        Issue.record("the socket ended before the token was seen")
        break
      }
      #expect(message.event == "token_seen")
      #expect(message.payload["access_token"]?.stringValue == "refreshed")
      break
    }
    socket.close()
  }

  struct Hostile: Sendable, CustomStringConvertible {
    let name: String
    let bytes: [UInt8]
    let closeCode: WebSocketCloseCode?
    var description: String { name }
  }

  static let hostile: [Hostile] = [
    .init(
      name: "bad UTF-8 in a text frame", bytes: [0x81, 0x02, 0xC3, 0x28], closeCode: .invalidPayload
    ),
    .init(
      name: "a frame announcing 2^63 bytes",
      bytes: [0x82, 0x7F, 0x7F, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF], closeCode: .messageTooBig
    ),
    .init(name: "an unknown binary kind", bytes: [0x82, 0x03, 0x09, 0x01, 0x02], closeCode: nil),
    .init(
      name: "text that is not a phoenix message", bytes: [0x81, 0x02, 0x7B, 0x7D], closeCode: nil),
    .init(
      name: "a masked frame from the server", bytes: [0x81, 0x81, 1, 2, 3, 4, 0x41],
      closeCode: .protocolError),
  ]

  @Test(arguments: hostile) func aHostileServerGetsAClearErrorNotACrash(_ hostile: Hostile)
    async throws
  {
    let server = try LoopbackPhoenixServer { _ in [.raw(hostile.bytes)] }
    defer { server.stop() }
    let (socket, events) = try await Self.open(server)
    do {
      _ = try await socket.join("realtime:room1", payload: [:])
      Issue.record("the join succeeded")
    } catch {
      switch error {
      case .socket(.protocolError(let wire)):
        #expect(wire.closeCode == hostile.closeCode)
      case .protocolError(let why):
        #expect(hostile.closeCode == nil, "\(why)")
      default:
        Issue.record("unexpected \(error)")
      }
    }
    for await event in events {
      if case .ended(let ending) = event { #expect(ending != nil) }
    }
  }

  @Test func aRefusedUpgradeSaysTheStatusAndTheBody() async throws {
    let server = try LoopbackHTTPServer { _ in
      .respond(status: 401, body: #"{"error":"API key is missing"}"#)
    }
    defer { server.stop() }
    await #expect(
      throws: RealtimeError.socket(.refused(status: 401, body: #"{"error":"API key is missing"}"#))
    ) {
      _ = try await RealtimeSocket.open(projectURL: server.baseURL, apikey: "k") { _ in }
    }
  }

  @Test func theServersCloseIsKeptWithItsCode() async throws {
    let server = try LoopbackPhoenixServer(greeting: [.close(.policyViolation)]) { _ in [] }
    defer { server.stop() }
    // The socket is held until its events end: it hands its connection's events on only while
    // it lives (the connection holds it weakly), so a socket dropped here lost a close that
    // arrived after `open` returned, and the loop below waited forever (seen under load).
    let (socket, events) = try await Self.open(server)
    var ending: RealtimeError??
    for await event in events {
      if case .ended(let error) = event { ending = error }
    }
    withExtendedLifetime(socket) {}
    #expect(ending == .some(.socket(.closed(code: .policyViolation, reason: ""))))
  }

  @Test func aServerThatStopsAnsweringTheHeartbeatEndsTheSocketSayingSo() async throws {
    // The server keeps the connection open and reads, but answers nothing: as a hung server.
    let server = try LoopbackPhoenixServer { _ in [] }
    defer { server.stop() }
    let (stream, continuation) = AsyncStream.makeStream(of: RealtimeSocket.Event.self)
    let socket = try await RealtimeSocket.open(
      projectURL: server.url, apikey: "anon-key",
      heartbeat: .init(every: .milliseconds(50), timeout: .milliseconds(200))
    ) {
      continuation.yield($0)
      if case .ended = $0 { continuation.finish() }
    }
    var ending: RealtimeError??
    for await event in stream {
      if case .ended(let error) = event { ending = error }
    }
    #expect(ending == .some(.noReply(topic: "phoenix", event: "heartbeat", seconds: 0)))
    #expect(server.messages.map(\.event) == ["heartbeat"])
    socket.close()
  }
}
