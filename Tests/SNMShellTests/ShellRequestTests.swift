import Foundation
import SNMNetwork
import SNMSupabase
import SNMTestSupport
import Testing

@testable import SNMShell

/// A shell against a loopback server that plays PostgREST (a unit test of the request path; the
/// end-to-end tests use the real local project).
struct RequestRig {
  let directory = NSTemporaryDirectory() + "snm-shell-request-" + UUID().uuidString
  let output = OutputWriter()
  let errors = OutputWriter()
  /// The rig's own signal source: what a test simulates reaches this shell alone.
  let signals = InterruptSignals()
  let shell: StatementExecutor

  init(_ server: LoopbackHTTPServer, format: OutputFormat? = nil) throws {
    let project = try ProjectSelection(url: server.baseURL, key: "anon-key")
    var options = ShellOptions()
    options.format = format
    let sessions = SessionManager(
      project: project.url.absoluteString, store: FileSessionStore(directory: directory),
      auth: StubAuth())
    shell = StatementExecutor(
      project: project, options: options, output: output, errors: errors, sessions: sessions,
      auth: StubAuth(), signals: signals)
  }
}

@Suite(.timeLimit(.minutes(1))) struct ShellRequestTests {
  @Test func aQueryPrintsRowsAsATableAndRemembersItsColumns() async throws {
    let server = try LoopbackHTTPServer { _ in
      .respond(
        status: 200, headers: ["Content-Range": "0-1/5"],
        body: #"[{"id":1,"name":"김민지","bio":null},{"id":2,"name":"null","bio":"hi"}]"#)
    }
    defer { server.stop() }
    let rig = try RequestRig(server)
    let code = await rig.shell.run(
      text: "from user_info select id, name, bio order by id limit 2 count exact", name: "-c")
    #expect(code == .success)
    #expect(
      rig.output.captured == """
         id |  name  | bio
        ----+--------+------
          1 | 김민지 | NULL
          2 | null   | hi
        (2 rows of 5)

        """)
    let request = try #require(server.requests.first)
    #expect(request.target == "/rest/v1/user_info?select=id%2Cname%2Cbio&order=id&limit=2")
    #expect(request.headers["apikey"] == "anon-key")
    #expect(request.headers["authorization"] == "Bearer anon-key")
    #expect(rig.shell.catalog.columns(of: "user_info") == ["id", "name", "bio"])
  }

  @Test func jsonFormatPrintsTheBodyAsSent() async throws {
    let server = try LoopbackHTTPServer { _ in
      .respond(status: 200, body: #"[{"b":1,"a":{"z":null}}]"#)
    }
    defer { server.stop() }
    let rig = try RequestRig(server, format: .ndjson)
    #expect(await rig.shell.run(text: "from t select *", name: "-c") == .success)
    #expect(rig.output.captured == "{\"b\":1,\"a\":{\"z\":null}}\n")
  }

  @Test func aWriteWithoutRowsSaysWhatHappened() async throws {
    let server = try LoopbackHTTPServer { _ in .respond(status: 201) }
    defer { server.stop() }
    let rig = try RequestRig(server)
    _ = await rig.shell.run(text: "from dog insert {\"age\": 4}", name: "-c")
    #expect(rig.output.captured == "inserted (HTTP 201)\n")
    let request = try #require(server.requests.first)
    #expect(request.method == "POST")
    #expect(String(decoding: request.body, as: UTF8.self) == #"{"age":4}"#)
  }

  /// Issue 16 item 4: an update or delete asks for the count and says it as psql does; a
  /// script's `expect rows` reads it (PostgREST answers `*/n` in Content-Range).
  @Test func updatesAndDeletesSayHowManyRowsChanged() async throws {
    let server = try LoopbackHTTPServer { request in
      let counted = request.headers["prefer"] == "return=minimal,count=exact"
      let rows = request.method == "PATCH" ? "0" : "1"
      return .respond(status: 204, headers: counted ? ["Content-Range": "*/" + rows] : [:])
    }
    defer { server.stop() }
    let rig = try RequestRig(server)
    let code = await rig.shell.run(
      text: """
        from dog update {"age": 4} where id eq 1
        expect rows 0
        from dog delete where id eq 2
        expect rows 1
        """, name: "-c")
    #expect(code == .success, "\(rig.errors.captured)")
    #expect(rig.output.captured == "UPDATE 0\nDELETE 1\n")
    #expect(server.requests.map(\.method) == ["PATCH", "DELETE"])
    // Not at the prompt: no warning about the update that changed nothing.
    #expect(rig.errors.captured.isEmpty)
  }

  /// Issue 16 item 7: an empty result keeps the header its query names; `maybe single` with no
  /// match is no row, not a row holding NULL.
  @Test func emptyResultsKeepTheirHeader() async throws {
    let server = try LoopbackHTTPServer { _ in
      .respond(status: 200, headers: ["Content-Range": "*/*"], body: "[]")
    }
    defer { server.stop() }
    let rig = try RequestRig(server)
    _ = await rig.shell.run(
      text: """
        from dog select id, nick:name, age::text, data->>blood, owner:user_info(name), count()
        from dog select id, name where id eq 9 maybe single
        from dog select * where id eq 9
        """, name: "-c")
    #expect(
      rig.output.captured == """
         id | nick | age | blood | owner | count
        ----+------+-----+-------+-------+-------
        (0 rows)
         id | name
        ----+------
        (0 rows)
        (0 rows)

        """)
  }

  /// Issue 16 item 7: two results as CSV are two blocks, each with its header, an empty line
  /// between them.
  @Test func csvResultsArePartedByAnEmptyLine() async throws {
    let server = try LoopbackHTTPServer { request in
      request.target.contains("rpc")
        ? .respond(status: 200, body: "3") : .respond(status: 200, body: #"[{"id":1,"name":"a"}]"#)
    }
    defer { server.stop() }
    let rig = try RequestRig(server, format: .csv)
    _ = await rig.shell.run(
      text: "from dog select id, name; rpc sum {\"numbers\": [1, 2]}", name: "-c")
    #expect(rig.output.captured == "id,name\n1,a\n\nsum\n3\n")
  }

  @Test func serverErrorsPrintCodeMessageAndAdviceAndExitOne() async throws {
    let server = try LoopbackHTTPServer { _ in
      .respond(
        status: 406,
        body:
          #"{"code":"PGRST116","message":"Cannot coerce the result to a single JSON object","details":"The result contains 3 rows","hint":null}"#
      )
    }
    defer { server.stop() }
    let rig = try RequestRig(server)
    let code = await rig.shell.run(
      text: "from user_info select * single\necho 'not reached'", name: "a.snm")
    #expect(code == .failure)
    #expect(rig.output.captured == "")
    // A script names the statement that failed first, then the server's words.
    #expect(
      rig.errors.captured.hasPrefix(
        "a.snm:1:1: error: statement failed: from user_info select * single\n"
          + "error PGRST116 (HTTP 406): Cannot coerce the result to a single JSON object\n"
          + "  details: The result contains 3 rows\n  advice: `single` wants exactly one row"))
  }

  @Test func anUnreachableProjectExitsThree() async throws {
    try await LoopbackHTTPServer.withRefusingPort { port in
      let project = try ProjectSelection(url: "http://127.0.0.1:\(port)", key: "k")
      let errors = OutputWriter()
      let shell = StatementExecutor(
        project: project, options: ShellOptions(), output: OutputWriter(), errors: errors,
        sessions: SessionManager(
          project: project.url.absoluteString,
          store: FileSessionStore(directory: NSTemporaryDirectory() + UUID().uuidString),
          auth: StubAuth()), auth: StubAuth())
      #expect(await shell.run(text: "from t select *", name: "-c") == .unreachable)
      #expect(errors.captured.contains("connection refused"))
    }
  }

  @Test func explainPrintsTheRequestAndSendsNothing() async throws {
    let server = try LoopbackHTTPServer { _ in .respond(status: 500) }
    defer { server.stop() }
    let rig = try RequestRig(server)
    let code = await rig.shell.run(
      text: "explain json from user_info select * where age >= 3", name: "-c")
    #expect(code == .success)
    #expect(server.requests.isEmpty)
    #expect(rig.output.captured.contains(#""query":[["select","*"],["age","gte.3"]]"#))
  }

  @Test func aSignalCancelsTheRequestInFlightAndTheShellGoesOn() async throws {
    let server = try LoopbackHTTPServer { request in
      request.target.contains("slow") ? .hang : .respond(status: 200, body: "[{\"ok\":true}]")
    }
    defer { server.stop() }
    let rig = try RequestRig(server)
    let interrupter = Task {
      // Once the request hangs at the server, the shell is watching for a signal.
      while !server.requests.contains(where: { $0.target.contains("slow") }) {
        try await Task.sleep(for: .milliseconds(10))
      }
      return rig.signals.simulate(SIGINT)
    }
    let reader = TypedLines(["rpc slow", "from fast select *"])
    let code = await rig.shell.runPrompt(reader: reader)
    #expect(try await interrupter.value == 1)
    #expect(rig.errors.captured.contains("snm: cancelled"))
    #expect(rig.output.captured.contains("true"))
    #expect(code == .success)
  }

  @Test func aSignalThatCameBetweenReadsOfAPipeStopsTheLoopBeforeItsNextStatement() async throws {
    // Reading a pipe, a SIGTERM heard while the loop was not waiting for a line (gathering a
    // long statement) is what `stoppingOnSignals` records: the loop went on to its input's end.
    let server = try LoopbackHTTPServer { _ in .respond(status: 200, body: "[{\"ok\":true}]") }
    defer { server.stop() }
    let rig = try RequestRig(server)
    rig.shell.interrupt(SIGTERM)
    // An unfinished statement (its `[` never closed) was gathered to the pipe's end and then
    // reported as a syntax error, exit 2, the signal lost.
    let code = await rig.shell.runPrompt(
      reader: PipedLines(["from fast insert {\"a\": [", "1,", "from fast select *"]))
    #expect(code == .terminated)
    #expect(rig.errors.captured.isEmpty)
    #expect(server.requests.isEmpty)
  }

  @Test func aSignalCancelsASignInInFlightAndTheShellGoesOn() async throws {
    let server = try LoopbackHTTPServer { request in
      request.target.contains("/auth/v1/") ? .hang : .respond(status: 200, body: "[{\"ok\":true}]")
    }
    defer { server.stop() }
    let output = OutputWriter()
    let errors = OutputWriter()
    let signals = InterruptSignals()
    let directory = NSTemporaryDirectory() + "snm-shell-sign-in-" + UUID().uuidString
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let shell = StatementExecutor.isolated(
      project: try ProjectSelection(url: server.baseURL, key: "anon-key"), options: ShellOptions(),
      provider: SNMNetworkProvider(), sessionDirectory: directory, output: output, errors: errors,
      signals: signals)
    let interrupter = Task {
      // Once the sign-in hangs at the server, the shell is watching for a signal.
      while !server.requests.contains(where: { $0.target.contains("/auth/v1/") }) {
        try await Task.sleep(for: .milliseconds(10))
      }
      return signals.simulate(SIGINT)
    }
    let reader = TypedLines(["login email 'kim@example.com' password 'pw'", "from fast select *"])
    let code = await shell.runPrompt(reader: reader)
    #expect(try await interrupter.value == 1)
    #expect(errors.captured.contains("snm: cancelled"))
    #expect(output.captured.contains("true"))
    #expect(code == .success)
  }

  @Test func aSignalStopsTablesWaitingForTheSchemaAndTheShellGoesOn() async throws {
    let server = try LoopbackHTTPServer { request in
      request.target == "/rest/v1/" ? .hang : .respond(status: 200, body: "[{\"ok\":true}]")
    }
    defer { server.stop() }
    let rig = try RequestRig(server)
    let interrupter = Task {
      // Once the schema's request hangs at the server, `tables` is waiting for it.
      while !server.requests.contains(where: { $0.target == "/rest/v1/" }) {
        try await Task.sleep(for: .milliseconds(10))
      }
      return rig.signals.simulate(SIGINT)
    }
    let code = await rig.shell.runPrompt(reader: TypedLines(["tables", "from fast select *"]))
    #expect(try await interrupter.value == 1)
    #expect(rig.errors.captured.contains("snm: cancelled"))
    #expect(rig.output.captured.contains("true"))
    #expect(code == .success)
  }
}

/// Lines "typed at the prompt": an interactive reader without a terminal.
final class TypedLines: LineReader {
  let next: @Sendable () -> String?
  init(_ lines: [String]) { next = ShellStatementTests.feed(lines) }
  var isInteractive: Bool { true }
  func readLine(prompt: String, pending: String) -> LineInput { next().map { .line($0) } ?? .end }
  func remember(_ statement: String) {}
}
