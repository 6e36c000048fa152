import SNMNetwork
import SNMSupabase
import Testing

@testable import SNMQuery

/// `put`, `plan` and `set timezone` (issue 17): what they parse to, print back as, and send.
@Suite struct MediaStatementTests {
  @Test func putRoundTripsAndNeedsItsKey() throws {
    let script = Parser.parse(#"from tiobe put {"name": "Go", "rank": 19} where name eq 'Go'"#)
    #expect(script.diagnostics.isEmpty)
    let canonical = try #require(script.statements.first).canonicalText
    #expect(canonical == #"from tiobe put {"name": "Go", "rank": 19} where name eq "Go""#)
    #expect(
      !OfflineCheck().diagnostics(for: Source(text: #"from tiobe put {"name": "Go"}"#)).isEmpty)
  }

  @Test func planOptionsKeepPostgRESTsOrder() throws {
    let request = try CompilerSpecTests.request(
      "rpc get get_projects plan wal analyze analyze")
    #expect(
      request.endpoint.headers["Accept"]
        == #"application/vnd.pgrst.plan+text; for="application/json"; options=analyze|wal"#)
    let script = Parser.parse("from t select * plan verbose")
    #expect(try #require(script.statements.first).canonicalText == "from t select * plan verbose")
    #expect(!Parser.parse("from t select * plan plan").diagnostics.isEmpty)
  }

  @Test func timezoneIsASettingSentAsAPreference() throws {
    let script = Parser.parse("set timezone 'Asia/Seoul'\nset timezone off")
    #expect(script.diagnostics.isEmpty)
    #expect(
      script.statements.map(\.canonicalText) == [#"set timezone "Asia/Seoul""#, "set timezone off"])
    #expect(!Parser.parse("set timezone").diagnostics.isEmpty)
    let statement = try #require(Parser.parse("from t select *").statements.first)
    var compiler = StatementCompiler(manager: CompilerSpecTests.manager, scope: VariableScope())
    compiler.timezone = "Asia/Seoul"
    let request = try compiler.compile(statement).request
    #expect(request.endpoint.headers["Prefer"] == "timezone=Asia/Seoul")
  }
}
