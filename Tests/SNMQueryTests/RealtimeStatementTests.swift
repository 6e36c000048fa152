import SNMSupabase
import SNMWire
import Testing

@testable import SNMQuery

/// The Realtime statements (issue 36): what they parse to, print back as, refuse, and send.
@Suite struct RealtimeStatementTests {
  struct RoundTrip: Sendable, CustomStringConvertible {
    let written: String
    let canonical: String
    var description: String { written }
  }

  static let roundTrips: [RoundTrip] = [
    .init(written: "listen todos", canonical: "listen todos *"),
    .init(written: "LISTEN todos INSERT", canonical: "listen todos insert"),
    .init(written: "listen app.todos delete", canonical: "listen app.todos delete"),
    .init(
      written: "listen todos update where owner = 'bob' and id in (1, 2)",
      canonical: #"listen todos update where owner eq "bob" and id in (1, 2)"#),
    .init(written: "listen channel room1 private", canonical: "listen channel room1 private"),
    .init(written: #"listen channel "room 1""#, canonical: #"listen channel "room 1""#),
    .init(written: "listen channel game:42", canonical: "listen channel game:42"),
    .init(written: "unlisten", canonical: "unlisten all"),
    .init(written: "unlisten todos", canonical: "unlisten todos"),
    .init(
      written: #"broadcast room1 cursor {"x": 1}"#, canonical: #"broadcast room1 cursor {"x": 1}"#),
    .init(
      written: #"track room1 {"status": "online"}"#,
      canonical: #"track room1 {"status": "online"}"#),
    .init(written: "untrack room1", canonical: "untrack room1"),
    .init(written: "expect event", canonical: "expect event"),
    .init(written: "expect event insert", canonical: "expect event insert"),
    .init(
      written: "expect event todos insert where title eq 'a' within 2s",
      canonical: #"expect event todos insert where title eq "a" within 2s"#),
    .init(
      written: "expect no event todos within 500ms", canonical: "expect no event todos within 500ms"
    ),
    .init(written: "expect event room1 cursor", canonical: "expect event room1 cursor"),
    .init(written: "realtime check todos", canonical: "realtime check todos"),
    .init(written: "REALTIME CHECK app.todos", canonical: "realtime check app.todos"),
    .init(
      written: "realtime check channel room1 private",
      canonical: "realtime check channel room1 private"),
    .init(
      written: #"realtime check channel "room 1""#, canonical: #"realtime check channel "room 1""#),
  ]

  @Test(arguments: roundTrips) func parsesAndPrintsBack(_ trip: RoundTrip) throws {
    let script = Parser.parse(trip.written)
    #expect(script.diagnostics.isEmpty, "\(script.diagnostics)")
    let statement = try #require(script.statements.first)
    #expect(statement.canonicalText == trip.canonical)
    let again = Parser.parse(trip.canonical)
    #expect(again.statements.first?.canonicalText == trip.canonical)
  }

  @Test func oneNameAloneIsAKindOnlyForAChangeWord() throws {
    let kind = Parser.parse("expect event update").statements.first?.kind
    guard case .realtime(.expectEvent(let expectation))? = kind else {
      Issue.record("not an expectation: \(String(describing: kind))")
      return
    }
    #expect(expectation.kind?.text == "update" && expectation.subscription == nil)
    let named = Parser.parse("expect event todos").statements.first?.kind
    guard case .realtime(.expectEvent(let other))? = named else {
      Issue.record("not an expectation")
      return
    }
    #expect(other.subscription?.text == "todos" && other.kind == nil)
    #expect(other.milliseconds == RealtimeExpectation.defaultMilliseconds)
  }

  struct Refusal: Sendable, CustomStringConvertible {
    let written: String
    let id: String
    let column: Int
    var description: String { written }
  }

  static let refusals: [Refusal] = [
    .init(written: "listen todos where a eq 1 or b eq 2", id: "realtime-or", column: 20),
    .init(written: "listen todos where a cs '{1}'", id: "realtime-operator", column: 22),
    .init(written: "listen todos where a.b eq 1", id: "realtime-column-path", column: 20),
    .init(written: "broadcast room1 cursor 3", id: "realtime-payload", column: 24),
    .init(written: "track room1 [1]", id: "realtime-payload", column: 13),
    .init(written: "listen todos where a eq $nope", id: "undefined-variable", column: 25),
  ]

  @Test(arguments: refusals) func checksRefuseWithACaret(_ refusal: Refusal) throws {
    let source = Source(text: refusal.written)
    let diagnostics = OfflineCheck().diagnostics(for: source)
    let first = try #require(diagnostics.first)
    #expect(first.message.id == refusal.id)
    #expect(first.range.start + 1 == refusal.column)
  }

  @Test func misspellingsGetADidYouMean() throws {
    let cases = [
      ("lsiten todos", "did you mean 'listen'?"),
      ("listen todos inserts", "did you mean 'insert'?"),
      ("realtime chek todos", "did you mean 'check'?"),
      ("realtme check todos", "did you mean 'realtime'?"),
    ]
    for (written, help) in cases {
      let script = Parser.parse(written)
      #expect(script.diagnostics.first?.help == help, "\(written)")
    }
  }

  @Test func realtimeCheckRefusesWithACaret() throws {
    let cases = [
      ("realtime", "expected 'check' after 'realtime'", 8),
      ("realtime chek todos", "expected 'check' after 'realtime', found 'chek'", 9),
      ("realtime check", "expected a table, or 'channel <topic>' after 'realtime check'", 14),
      ("realtime check channel 'x'", "expected a topic after 'realtime check channel'", 23),
    ]
    for (written, message, offset) in cases {
      let diagnostic = try #require(Parser.parse(written).diagnostics.first, "\(written)")
      #expect(diagnostic.message.text.hasPrefix(message), "\(written): \(diagnostic.message)")
      #expect(diagnostic.range.start == offset, "\(written)")
    }
  }

  @Test func completionOffersRealtimeCheckAndWhatFollows() {
    func words(_ text: String) -> [String] {
      CompletionContext.at(offset: text.utf8.count, in: text).keywords
    }
    #expect(words("").contains("realtime"))
    #expect(words("realtime ") == ["check"])
    #expect(words("realtime check ").contains("channel"))
    #expect(words("realtime check channel room1 ").contains("private"))
  }

  @Test func realtimeCheckTargetsATableOrAChannel() throws {
    let table = Parser.parse("realtime check todos").statements.first?.kind
    guard case .realtime(.check(.table(let name)))? = table else {
      Issue.record("not a table check: \(String(describing: table))")
      return
    }
    #expect(name.name.text == "todos" && name.schema == nil)
    let channel = Parser.parse("realtime check channel room1 private").statements.first?.kind
    guard case .realtime(.check(.channel(let topic, let isPrivate)))? = channel else {
      Issue.record("not a channel check: \(String(describing: channel))")
      return
    }
    #expect(topic.text == "room1" && isPrivate)
  }

  @Test func explainOfACheckShowsTheDatabaseReadsTheJoinAndTheLeave() throws {
    let outcome = RequestExplainer.explain(
      Source(text: "realtime check app.todos"), format: .json, url: "https://abc.supabase.co/",
      scope: VariableScope())
    guard case .explained(let text) = outcome else {
      Issue.record("not explained: \(outcome)")
      return
    }
    let json = try JSONValue(parsing: text)
    let database = json["database"]?.arrayValue?.compactMap(\.stringValue) ?? []
    #expect(database.contains { $0.contains("pg_publication_tables") })
    #expect(database.contains { $0.contains(#"from "app"."todos" limit 10000"#) })
    #expect(json["messages"]?[0]?[2]?.stringValue == "realtime:app.todos")
    #expect(json["messages"]?[1]?[3]?.stringValue == "phx_leave")
    #expect(
      json["messages"]?[0]?[4]?["config"]?["postgres_changes"]?.serialized()
        == #"[{"event":"*","schema":"app","table":"todos"}]"#)
  }

  @Test func expectEventBindsEvent() {
    let diagnostics = OfflineCheck().diagnostics(
      for: Source(text: "listen todos\nexpect event todos\necho $event.record"))
    #expect(diagnostics.isEmpty, "\(diagnostics)")
    let before = OfflineCheck().diagnostics(for: Source(text: "echo $event.record"))
    #expect(!before.isEmpty)
  }

  @Test func explainShowsTheJoinAndTheSwiftChain() throws {
    let outcome = RequestExplainer.explain(
      Source(text: "listen todos insert where owner eq $me"), format: .json,
      url: "https://abc.supabase.co/", scope: VariableScope(values: ["me": .string("bob")]))
    guard case .explained(let text) = outcome else {
      Issue.record("not explained: \(outcome)")
      return
    }
    let json = try JSONValue(parsing: text)
    #expect(
      json["socket"]?.stringValue
        == "wss://abc.supabase.co/realtime/v1/websocket?vsn=2.0.0")
    let join = try #require(json["messages"]?[0])
    #expect(join[2]?.stringValue == "realtime:todos")
    #expect(join[3]?.stringValue == "phx_join")
    #expect(
      join[4]?["config"]?["postgres_changes"]?.serialized()
        == #"[{"event":"INSERT","schema":"public","table":"todos","filter":"owner=eq.bob"}]"#)
    #expect(join[4]?["access_token"]?.stringValue == "$TOKEN")
    #expect(
      json["swift"]?.stringValue?.contains(
        #"channel.postgresChange(InsertAction.self, schema: "public", table: "todos", filter: "owner=eq.bob")"#
      )
        == true)
  }

  @Test func filterValuesAreQuotedAsRealtimeReadsThem() throws {
    let statement = try #require(
      Parser.parse("listen todos where title in ('a,b', 'c') and done is null").statements.first)
    guard case .realtime(let realtime) = statement.kind,
      case .join(_, let config)? = try RealtimeCompiler().compile(realtime)?.action
    else {
      Issue.record("not a join")
      return
    }
    #expect(config.postgresChanges.first?.filter == #"title=in.("a,b",c),done=is.null"#)
  }
}
