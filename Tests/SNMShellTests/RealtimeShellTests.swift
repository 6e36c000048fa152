import Foundation
import SNMSupabase
import SNMTestSupport
import SNMWire
import Testing

@testable import SNMShell

/// The Realtime statements in a script against a loopback Phoenix server (a unit test of the
/// family; the end-to-end tests use the local project's Realtime).
@Suite(.timeLimit(.minutes(1))) struct RealtimeShellTests {
  /// A server that answers joins (with "Subscribed to PostgreSQL" for postgres_changes), then
  /// sends `after` on the joined topic; broadcasts come back to the sender, tracks as joins.
  static func server(afterJoin after: [(String, JSONValue)] = [], system: JSONValue? = nil)
    throws -> LoopbackPhoenixServer
  {
    try LoopbackPhoenixServer { message in
      switch message.event {
      case "phx_join":
        let changes = message.payload["config"]?["postgres_changes"]?.arrayValue ?? []
        var sends = [LoopbackPhoenixServer.ok(message, ["postgres_changes": .array(changes)])]
        if !changes.isEmpty {
          sends.append(
            LoopbackPhoenixServer.push(
              message.topic, "system",
              system ?? [
                "extension": "postgres_changes", "status": "ok",
                "message": "Subscribed to PostgreSQL", "channel": "todos",
              ]))
        }
        return sends + after.map { LoopbackPhoenixServer.push(message.topic, $0.0, $0.1) }
      case "broadcast":
        return [
          LoopbackPhoenixServer.ok(message),
          LoopbackPhoenixServer.push(message.topic, "broadcast", message.payload),
        ]
      case "presence":
        return [
          LoopbackPhoenixServer.ok(message),
          LoopbackPhoenixServer.push(
            message.topic, "presence_diff",
            ["joins": ["me": ["metas": [message.payload["payload"] ?? .null]]], "leaves": [:]]),
        ]
      default:
        return [LoopbackPhoenixServer.ok(message)]
      }
    }
  }

  static func change(_ id: Int) -> (String, JSONValue) {
    (
      "postgres_changes",
      [
        "ids": [1],
        "data": [
          "schema": "public", "table": "todos", "type": "INSERT",
          "record": ["id": .number(JSONNumber(id))], "old_record": [:],
        ],
      ]
    )
  }

  @Test func expectEventTakesTheMatchingEventAndTheRestInOrder() async throws {
    let server = try Self.server(afterJoin: [Self.change(1), Self.change(2), Self.change(3)])
    defer { server.stop() }
    let rig = try RequestRig(server.http)
    let code = await rig.shell.run(
      text: """
        listen todos insert
        expect event todos insert where id eq 2 within 5s
        echo $event.record.id
        expect event todos within 5s
        echo $event.record.id
        expect event insert within 5s
        echo $event.record.id
        """, name: "-c")
    #expect(code == .success, "\(rig.errors.captured)")
    #expect(rig.output.captured == "2\n1\n3\n")
    let join = try #require(server.messages.first)
    #expect(
      join.payload["config"]?["postgres_changes"]?.serialized()
        == #"[{"event":"INSERT","schema":"public","table":"todos"}]"#)
    #expect(join.payload["access_token"]?.stringValue == "anon-key")
  }

  @Test func listenFailsWhenTheServerDoesNotSubscribeToTheTable() async throws {
    let server = try Self.server(system: [
      "extension": "postgres_changes", "status": "error",
      "message": "Unable to subscribe to changes with given parameters",
    ])
    defer { server.stop() }
    let rig = try RequestRig(server.http)
    let code = await rig.shell.run(text: "listen todos\necho 'not reached'", name: "-c")
    #expect(code == .failure)
    #expect(rig.output.captured == "")
    #expect(rig.errors.captured.contains("Unable to subscribe to changes with given parameters"))
    #expect(rig.errors.captured.contains("supabase_realtime publication"))
  }

  @Test func aBroadcastComesBackToItsChannel() async throws {
    let server = try Self.server()
    defer { server.stop() }
    let rig = try RequestRig(server.http)
    let code = await rig.shell.run(
      text: """
        listen channel room1
        broadcast room1 cursor {"x": 1}
        expect event room1 cursor where x eq 1 within 5s
        echo $event.payload.x
        track room1 {"status": "online"}
        expect event room1 join within 5s
        """, name: "-c")
    #expect(code == .success, "\(rig.errors.captured)")
    #expect(rig.output.captured == "1\n")
    let events = server.messages.map(\.event)
    #expect(events == ["phx_join", "broadcast", "presence"])
  }

  @Test func anEventThatNeverComesFailsTheExpectationSayingWhatCame() async throws {
    let server = try Self.server(afterJoin: [Self.change(1)])
    defer { server.stop() }
    let rig = try RequestRig(server.http)
    let code = await rig.shell.run(
      text: "listen todos\nexpect event todos delete within 300ms", name: "-c")
    #expect(code == .failure)
    #expect(rig.errors.captured.contains("none within"), "\(rig.errors.captured)")
    #expect(rig.errors.captured.contains(#""record":{"id":1}"#))
  }

  @Test func expectNoEventPassesWhenNoneMatches() async throws {
    let server = try Self.server(afterJoin: [Self.change(1)])
    defer { server.stop() }
    let rig = try RequestRig(server.http)
    let code = await rig.shell.run(
      text: "listen todos\nexpect event todos within 5s\nexpect no event todos within 200ms",
      name: "-c")
    #expect(code == .success, "\(rig.errors.captured)")
  }

  @Test func expectEventNamesWhatIsNotListenedTo() async throws {
    let server = try Self.server()
    defer { server.stop() }
    let rig = try RequestRig(server.http)
    let code = await rig.shell.run(text: "expect event todos within 1s", name: "-c")
    #expect(code == .usage || code == .failure)
    #expect(rig.errors.captured.contains("not listening to 'todos'; 'listen todos' first"))
  }
}
