import Foundation
import SNMNetwork
import SNMQuery
import SNMSupabase
import SNMTestSupport
import Testing

@testable import SNMShell

/// A loopback "PostgREST" for the script runner: `dog_profile` answers two rows (the first as an
/// object to `single`), a `mate` insert is a duplicate (23505), `nosuch` is PGRST205, anything
/// else an empty 201.
func fakePostgREST() throws -> LoopbackHTTPServer {
  try LoopbackHTTPServer { request in
    if request.target.hasPrefix("/rest/v1/dog_profile"),
      request.headers["accept"] == "application/vnd.pgrst.object+json"
    {
      return .respond(status: 200, body: #"{"id":1,"name":"Bori"}"#)
    }
    if request.target.hasPrefix("/rest/v1/dog_profile") {
      return .respond(
        status: 200, headers: ["Content-Range": "0-1/*"],
        body: #"[{"id":1,"name":"Bori"},{"id":2,"name":"Choco"}]"#)
    }
    if request.target.hasPrefix("/rest/v1/mate") {
      return .respond(
        status: 409,
        body:
          #"{"code":"23505","message":"duplicate key value violates unique constraint \"mate_user_id_mate_id_key\"","details":null,"hint":null}"#
      )
    }
    if request.target.hasPrefix("/rest/v1/nosuch") {
      return .respond(
        status: 404,
        body:
          #"{"code":"PGRST205","message":"Could not find the table 'public.nosuch' in the schema cache","details":null,"hint":null}"#
      )
    }
    return .respond(status: 201)
  }
}

/// A shell with its own session against `server`, writing to memory.
struct ScriptRig {
  let output = OutputWriter()
  let errors = OutputWriter()
  let shell: StatementExecutor
  let directory = NSTemporaryDirectory() + "snm-script-session-" + UUID().uuidString

  init(_ server: LoopbackHTTPServer, options: ShellOptions = ShellOptions()) throws {
    let project = try ProjectSelection(url: server.baseURL, key: "anon-key")
    shell = StatementExecutor.isolated(
      project: project, options: options, provider: SNMNetworkProvider(),
      sessionDirectory: directory, output: output, errors: errors)
  }
}

@Suite(.timeLimit(.minutes(1))) struct ScriptRunTests {
  /// Runs `files["main.snm"]` (with the other files beside it) against the fake server.
  func run(
    _ files: [String: String], options: ShellOptions = ShellOptions()
  ) async throws -> (code: ExitCode, output: String, errors: String, runner: ScriptRunner) {
    let server = try fakePostgREST()
    defer { server.stop() }
    let directory = try ScriptDirectory(files)
    defer { directory.remove() }
    let rig = try ScriptRig(server, options: options)
    var runner = ScriptRunner(executor: rig.shell)
    let code = await runner.run(file: directory.file("main.snm"))
    let strip = { (text: String) in text.replacingOccurrences(of: directory.path + "/", with: "") }
    return (code, strip(rig.output.captured), strip(rig.errors.captured), runner)
  }

  @Test func letBindsAQueryResultAndPrintsNothing() async throws {
    let result = try await run([
      "main.snm": """
      let dogs = from dog_profile select id, name
      expect rows 2
      expect $dogs[1].name == 'Choco'
      echo 'first: ${dogs[0].name}, id $dogs[0].id'
      """
    ])
    #expect(result.errors == "")
    #expect(result.output == "first: Bori, id 1\n")
    #expect(result.code == .success)
    #expect(result.runner.summary.expectations == 2)
    #expect(result.runner.summary.statements == 4)
  }

  @Test func aFailedExpectationStopsTheScriptWithWhereAndWhy() async throws {
    let result = try await run([
      "main.snm": """
      from dog_profile select id
      # a comment
      expect rows 3
      echo 'not reached'
      """
    ])
    #expect(result.code == .failure)
    #expect(
      result.errors == """
        main.snm:3:1: error: expectation failed: expect rows 3
          expected: 3 rows
          found:    2 rows

        """)
    #expect(!result.output.contains("not reached"))
    let failure = try #require(result.runner.summary.failures.first)
    #expect(failure.kind == .expectation)
    #expect(failure.location == "main.snm:3:1" || failure.location.hasSuffix("/main.snm:3:1"))
  }

  @Test func expectErrorForgivesTheFailureBeforeItAndChecksTheCode() async throws {
    let result = try await run([
      "main.snm": """
      from mate insert {"user_id": 1, "mate_id": 2}
      expect error 23505
      expect status 409
      echo 'went on'
      """
    ])
    #expect(result.errors == "")
    #expect(result.output == "went on\n")
    #expect(result.code == .success)
  }

  @Test func expectErrorWithAnotherCodeSaysWhichCameInstead() async throws {
    let result = try await run([
      "main.snm": """
      from mate insert {"user_id": 1, "mate_id": 2}
      expect error 42501
      """
    ])
    #expect(result.code == .failure)
    #expect(
      result.errors == """
        main.snm:2:1: error: expectation failed: expect error 42501
          expected: error 42501
          found:    error 23505 (HTTP 409): duplicate key value violates unique constraint \
        "mate_user_id_mate_id_key"

        """)
  }

  @Test func aServerFailureNamesTheStatementThenTheServersWords() async throws {
    let result = try await run([
      "main.snm": """
      echo 'one'
      from nosuch \\
        select *
      echo 'two'
      """
    ])
    #expect(result.code == .failure)
    #expect(result.output == "one\n")
    #expect(
      result.errors.hasPrefix(
        """
        main.snm:2:1: error: statement failed: from nosuch select *
        error PGRST205 (HTTP 404): Could not find the table 'public.nosuch' in the schema cache

        """))
  }

  @Test func onErrorContinueRunsTheRestAndStillExitsOne() async throws {
    let result = try await run([
      "main.snm": """
      set on_error continue
      from nosuch select *
      expect rows 9
      echo 'still here'
      """
    ])
    #expect(result.code == .failure)
    #expect(result.output == "still here\n")
    #expect(result.runner.summary.failures.map(\.kind) == [.statement, .expectation])
  }

  @Test func continueOnErrorFromTheCommandLineDoesTheSame() async throws {
    var options = ShellOptions()
    options.continueOnError = true
    let result = try await run(
      ["main.snm": "expect 1 == 2\necho 'after'\n"], options: options)
    #expect(result.code == .failure)
    #expect(result.output == "after\n")
  }

  @Test func runIsRelativeToTheFileAndSharesVariables() async throws {
    let result = try await run([
      "main.snm": "let who = 'Kim'\nrun lib/greet.snm\necho 'back: $greeting'\n",
      "lib/greet.snm": "let greeting = 'hi ${who}'\nrun more/deeper.snm\n",
      "lib/more/deeper.snm": "echo 'deeper sees $greeting'\n",
    ])
    #expect(result.errors == "")
    #expect(result.output == "deeper sees hi Kim\nback: hi Kim\n")
    #expect(result.code == .success)
  }

  @Test func aFailureInsideARunFileNamesItAndWhereItWasRunFrom() async throws {
    let result = try await run([
      "main.snm": "echo 'start'\nrun lib/check.snm\necho 'not reached'\n",
      "lib/check.snm": "from dog_profile select *\nexpect rows 0\n",
    ])
    #expect(result.code == .failure)
    #expect(
      result.errors == """
        lib/check.snm:2:1: error: expectation failed: expect rows 0
          expected: 0 rows
          found:    2 rows
        main.snm:2:1: note: run from here

        """)
    #expect(result.runner.summary.failures.count == 1)
  }

  @Test func anUndefinedVariableAnywhereStopsEverythingBeforeARequest() async throws {
    let server = try fakePostgREST()
    defer { server.stop() }
    let directory = try ScriptDirectory([
      "main.snm": "from dog_profile select *\nrun lib/b.snm\n",
      "lib/b.snm": "echo 'x'\nexpect $dog.id == 1\n",
    ])
    defer { directory.remove() }
    let rig = try ScriptRig(server)
    var runner = ScriptRunner(executor: rig.shell)
    let code = await runner.run(file: directory.file("main.snm"))
    #expect(code == .usage)
    #expect(server.requests.isEmpty)
    #expect(rig.errors.captured.contains("lib/b.snm:2:8: error: undefined variable '$dog.id'"))
    #expect(runner.summary.failures.first?.kind == .parse)
  }

  @Test func aMissingFieldAtRunTimeIsReportedAtItsColumn() async throws {
    let result = try await run([
      "main.snm": "let dog = from dog_profile select * single\necho 'id: $dog.idd'\n"
    ])
    #expect(result.code == .usage)
    #expect(result.errors.contains("main.snm:2:1: error: statement could not run: echo"))
    #expect(result.errors.contains("main.snm:2:11: error:"))
  }

  @Test func standardInputLetsExpectErrorFollowInTheNextChunk() async throws {
    let server = try fakePostgREST()
    defer { server.stop() }
    let rig = try ScriptRig(server)
    let reader = PipedLines([
      "from mate insert {\"a\": 1}", "expect error 23505", "", "echo 'ok'", "# a comment",
      "from nosuch \\", "  select *",
    ])
    let code = await rig.shell.runPrompt(reader: reader)
    #expect(code == .failure)
    #expect(rig.output.captured == "ok\n")
    // The location is the line in the whole input, not in the chunk.
    #expect(rig.errors.captured.hasPrefix("stdin:6:1: error: statement failed: from nosuch"))
  }
}

extension ScriptRunTests {
  @Test func atThePromptExpectationsCheckTheLineBefore() async throws {
    let server = try fakePostgREST()
    defer { server.stop() }
    let rig = try ScriptRig(server)
    let reader = TypedLines([
      "from mate insert {\"a\": 1}", "expect error 23505", "expect status 409",
      "from dog_profile select id", "expect error",
    ])
    var loop = PromptLoop(executor: rig.shell, reader: reader)
    #expect(await loop.run() == .success)
    #expect(
      rig.errors.captured.hasSuffix(
        "expectation failed\n  expected: an error\n  found:    success (HTTP 200)\n"))
    #expect(loop.runner.summary.expectations == 2)
  }
}

/// Lines from a pipe: not interactive.
final class PipedLines: LineReader {
  let next: @Sendable () -> String?
  init(_ lines: [String]) { next = ShellStatementTests.feed(lines) }
  var isInteractive: Bool { false }
  func readLine(prompt: String, pending: String) -> LineInput { next().map { .line($0) } ?? .end }
  func remember(_ statement: String) {}
}

@Suite struct StatementTextTests {
  @Test(arguments: [
    (
      "login email 'kim@example.com' password 's3cret!'",
      "login email 'kim@example.com' password '********'"
    ),
    ("signup email $e password \"p w\" ", "signup email $e password '********'"),
    (
      "login email 'kim@example.com' password $env.PW",
      "login email 'kim@example.com' password $env.PW"
    ),
    ("from t select *", "from t select *"),
  ])
  func passwordsAreMasked(_ text: String, _ shown: String) throws {
    let script = Parser.parse(Source(text: text, fileName: "t.snm"))
    let statement = try #require(script.statements.first)
    #expect(StatementText.display(statement, in: script.source) == shown)
  }
}
