import Foundation
import SNMNetwork
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
    // A heartbeat may come at any time (every 25 s: a loaded machine takes that long).
    let events = server.messages.map(\.event).filter { $0 != "heartbeat" }
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

  @Test func aFailingExpectationTracesTheLastEventsEachBoundedSayingWhatWasLeftOut() async throws {
    let big = String(repeating: "a", count: 2 << 20)
    var huge = Self.change(2)
    huge.1 = [
      "ids": [1],
      "data": [
        "schema": "public", "table": "todos", "type": "INSERT",
        "record": ["id": 2, "body": .string(big)], "old_record": [:],
      ],
    ]
    let server = try Self.server(afterJoin: [Self.change(1), huge, Self.change(3)])
    defer { server.stop() }
    let rig = try RequestRig(server.http)
    let trace = RequestTrace(keep: 6)
    // Event 3 came after the others on the socket: once it is taken, 1 and 2 wait in the queue.
    let code = await RequestTrace.$current.withValue(trace) {
      await rig.shell.run(
        text: """
          listen todos
          expect event todos where id eq 3 within 20s
          expect event todos delete within 300ms
          """, name: "-c")
    }
    #expect(code == .failure)
    let errors = rig.errors.captured
    #expect(errors.contains(#""record":{"id":1}"#), "\(errors.prefix(2000))")
    #expect(errors.utf8.count < 8 << 10, "the error line holds the whole event")
    let total = try #require(
      errors.range(of: #"\(([0-9]+) of ([0-9]+) bytes left out\)"#, options: .regularExpression))
    let said = errors[total]
    #expect(said.hasSuffix(" bytes left out)"))
    let lines = trace.lines()
    let header = try #require(lines.firstIndex { $0.hasPrefix("~ the last 2 event(s) received") })
    #expect(lines[header + 1].contains(#""record":{"id":1}"#))
    #expect(!lines[header + 1].contains("bytes left out"), "a small event is kept whole")
    let kept = lines[header + 2]
    #expect(kept.utf8.count < RealtimeEvent.traceBytes + 100)
    let body = big.utf8.count
    // Everything past the bound is counted: what is kept plus what is left out is the whole.
    let numbers =
      kept.split(separator: "(").last?.split(separator: " ").compactMap { Int($0) } ?? []
    #expect(
      numbers.count == 2 && numbers[1] > body && numbers[1] - numbers[0] <= RealtimeEvent.traceBytes
    )
    #expect(kept.hasSuffix("bytes left out)"))
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

  /// One more event than a subscription keeps: the first (`id` 1) is dropped unread.
  static func overflowingServer() throws -> LoopbackPhoenixServer {
    try Self.server(afterJoin: (1...(RealtimeSession.queueLimit + 1)).map { Self.change($0) })
  }

  @Test func expectNoEventCannotPassWhenTheMatchingEventWasDropped() async throws {
    let server = try Self.overflowingServer()
    defer { server.stop() }
    let rig = try RequestRig(server.http)
    // Waiting for the last event looks at each arrival once (before: the whole queue was
    // rescanned on every arrival, and 10,001 events did not get through in 30 s).
    let code = await rig.shell.run(
      text: """
        listen todos
        expect event todos where id eq \(RealtimeSession.queueLimit + 1) within 30s
        echo $event.record.id
        expect no event todos where id eq 1 within 1ms
        echo 'not reached'
        """, name: "-c")
    #expect(code == .failure)
    #expect(rig.output.captured == "\(RealtimeSession.queueLimit + 1)\n", "\(rig.errors.captured)")
    #expect(
      rig.errors.captured.contains("cannot tell: 1 event(s) were dropped unread"),
      "\(rig.errors.captured)")
  }

  @Test func anEventNotFoundSaysEventsWereDropped() async throws {
    let server = try Self.overflowingServer()
    defer { server.stop() }
    let rig = try RequestRig(server.http)
    let code = await rig.shell.run(
      text: """
        listen todos
        expect event todos where id eq \(RealtimeSession.queueLimit + 1) within 30s
        expect event todos where id eq 1 within 1ms
        """, name: "-c")
    #expect(code == .failure)
    #expect(rig.errors.captured.contains("none within"), "\(rig.errors.captured)")
    #expect(
      rig.errors.captured.contains("1 event(s) were dropped unread"), "\(rig.errors.captured)")
  }

  @Test func expectEventFailsAtOnceWithExit3WhenTheServerClosesTheSocket() async throws {
    // The server answers the join, sends one change, then closes: the queued event is still
    // taken, then the next expectation cannot be met and says so (before: it waited out its
    // 50 s, past this suite's time limit, and failed with exit 1).
    let server = try LoopbackPhoenixServer { message in
      guard message.event == "phx_join" else { return [LoopbackPhoenixServer.ok(message)] }
      return [
        LoopbackPhoenixServer.ok(message, ["postgres_changes": [[:]]]),
        LoopbackPhoenixServer.push(
          message.topic, "system",
          [
            "extension": "postgres_changes", "status": "ok",
            "message": "Subscribed to PostgreSQL",
          ]),
        LoopbackPhoenixServer.push(message.topic, Self.change(1).0, Self.change(1).1),
        .close(.goingAway),
      ]
    }
    defer { server.stop() }
    let rig = try RequestRig(server.http)
    let code = await rig.shell.run(
      text: """
        listen todos
        expect event todos within 50s
        echo $event.record.id
        expect event todos within 50s
        """, name: "-c")
    #expect(code == .unreachable, "\(rig.errors.captured)")
    #expect(rig.output.captured == "1\n")
    #expect(
      rig.errors.captured.contains(
        "cannot tell whether an event from todos came: the socket ended"),
      "\(rig.errors.captured)")
  }

  @Test func aChannelClosedAfterASystemErrorKeepsTheServersReason() async throws {
    // Realtime sends a `system` error (a rate limit) then closes the channel: the expectation
    // says the server's reason (before: only "the server closed the channel").
    let server = try Self.server(afterJoin: [
      (
        "system",
        ["status": "error", "extension": "system", "message": "Too many messages per second"]
      ),
      ("phx_close", [:]),
    ])
    defer { server.stop() }
    let rig = try RequestRig(server.http)
    let code = await rig.shell.run(
      text: "listen channel room1\nexpect event room1 cursor within 50s", name: "-c")
    // The server answered and refused: a statement failure (exit 1), not a project out of
    // reach (before: 3).
    #expect(code == .failure, "\(rig.errors.captured)")
    #expect(
      rig.errors.captured.contains("the server closed the channel: Too many messages per second"),
      "\(rig.errors.captured)")
  }
}
