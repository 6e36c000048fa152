import Foundation
import SNMQuery
import SNMSupabase
import SNMTestSupport
import Testing

@testable import SNMShell

/// A failure is a value: what the statement said about it is in its fields, and the script's
/// failure (and so JUnit, TAP and JSON) is made from them, not from the text on standard error.
@Suite(.timeLimit(.minutes(1))) struct StatementFailureTests {
  /// Runs `text`'s one statement through a runner's dispatcher against the fake PostgREST.
  func dispatch(_ text: String) async throws -> (StatementResult, errors: String) {
    let server = try fakePostgREST()
    defer { server.stop() }
    let rig = try ScriptRig(server)
    var runner = ScriptRunner(executor: rig.shell)
    let source = Source(text: text, fileName: "-c")
    let parsed = Parser.parse(source)
    let statement = try #require(parsed.statements.first)
    let result = await runner.dispatch(statement, in: source)
    return (result, rig.errors.captured)
  }

  @Test func aServerRefusalCarriesTheServersWordsAsItsMessage() async throws {
    let (result, errors) = try await dispatch(#"from mate insert {"user_id": 1, "mate_id": 2}"#)
    let failure = try #require(result.failure)
    #expect(failure.exitCode == .failure)
    #expect(
      failure.message
        == #"error 23505 (HTTP 409): duplicate key value violates unique constraint "mate_user_id_mate_id_key""#
    )
    #expect(
      failure.detail
        == "  advice: a row with this key exists: `upsert ... on conflict COLUMN` updates it instead\n"
    )
    #expect(failure.code == "23505")
    #expect(errors.hasPrefix(try #require(failure.message)))
  }

  @Test func aValueThatCannotBeFilledInSaysWhereAsItsMessage() async throws {
    let (result, _) = try await dispatch("echo 'id: $env.SNM_SURELY_UNSET_VARIABLE'")
    let failure = try #require(result.failure)
    #expect(failure.exitCode == .usage)
    #expect(failure.message?.hasPrefix("-c:1:") == true)
    #expect(failure.message?.contains(": error: ") == true)
  }

  @Test func aSaidTextSplitsIntoMessageAndDetail() {
    let failure = StatementFailure(.server, saying: "refused\nhelp: run 'user reauthenticate'\n")
    #expect(failure.message == "refused")
    #expect(failure.detail == "help: run 'user reauthenticate'\n")
    #expect(StatementFailure(.usage, saying: "one line").detail == nil)
  }

  @Test func theScriptsFailureTakesTheMessageFromTheField() async throws {
    let server = try fakePostgREST()
    defer { server.stop() }
    let rig = try ScriptRig(server)
    var runner = ScriptRunner(executor: rig.shell)
    _ = await runner.run(text: "from nosuch select *", name: "-c")
    let failure = try #require(runner.summary.failures.first)
    #expect(
      failure.message
        == "statement failed: from nosuch select *: error PGRST205 (HTTP 404): Could not find "
        + "the table 'public.nosuch' in the schema cache")
  }
}
