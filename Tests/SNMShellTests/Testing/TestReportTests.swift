import Foundation
import SNMTestSupport
import Testing

@testable import SNMShell

#if canImport(FoundationXML)
  import FoundationXML
#endif

@Suite struct TestReportTests {
  /// A passing file, an expectation failure (with output), a parse error, a statement failure with
  /// markup and a control character, and a file an interruption left unrun.
  static let results: [ScriptResult] = [
    ScriptResult(
      path: "smoke/01-sign-in.snm", exitCode: .success, statements: 6, expectations: 3,
      seconds: 0.25),
    ScriptResult(
      path: "failing/rows.snm", exitCode: .failure,
      failures: [
        ScriptFailure(
          kind: .expectation, location: "failing/rows.snm:3:1", statement: "expect rows 1",
          message: "expectation failed: expect rows 1", expected: "1 row", found: "0 rows",
          text: "failing/rows.snm:3:1: error: expectation failed: expect rows 1\n"
            + "  expected: 1 row\n  found:    0 rows\n")
      ], statements: 3, expectations: 0, seconds: 0.0125, output: "(0 rows)\n"),
    ScriptResult(
      path: "failing/parse.snm", exitCode: .usage,
      failures: [
        ScriptFailure(
          kind: .parse, location: "failing/parse.snm:1:39", statement: "",
          message: "expected a value after 'eq'",
          text: "failing/parse.snm:1:39: error: expected a value after 'eq'\n"
            + "from dog_profile select id where id eq\n" + String(repeating: " ", count: 38)
            + "^\n")
      ]),
    ScriptResult(
      path: "failing/a & <b> #1.snm", exitCode: .failure,
      failures: [
        ScriptFailure(
          kind: .statement, location: "failing/a & <b> #1.snm:2:1",
          statement: #"from t insert {"name": "\"x\""}"#,
          message: "statement failed: error 23505 (HTTP 409): duplicate \u{1}key",
          text: "failing/a & <b> #1.snm:2:1: error: statement failed\nerror 23505 \u{1}\n")
      ], statements: 2, seconds: 1),
    ScriptResult.notRun("later/z.snm"),
  ]

  @Test(arguments: TestReport.Kind.allCases) func golden(_ kind: TestReport.Kind) {
    expectSnapshot(kind.render(Self.results), named: "reports/report.\(kind.rawValue)")
  }

  @Test func theJUnitReportIsWellFormedXML() throws {
    let data = Data(TestReport.Kind.junit.render(Self.results).utf8)
    let document = try XMLDocument(data: data)
    let cases = try document.nodes(forXPath: "/testsuites/testsuite/testcase")
    #expect(cases.count == 5)
    let failures = try document.nodes(forXPath: "//testcase/failure").count
    let errors = try document.nodes(forXPath: "//testcase/error").count
    let skipped = try document.nodes(forXPath: "//testcase/skipped").count
    #expect((failures, errors, skipped) == (2, 1, 1))
  }

  @Test func theJSONReportParses() throws {
    let text = TestReport.Kind.json.render(Self.results)
    let object = try #require(
      try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    #expect(object["passed"] as? Int == 1)
    #expect(object["failed"] as? Int == 3)
    #expect(object["skipped"] as? Int == 1)
    #expect((object["files"] as? [Any])?.count == 5)
  }

  @Test func reportKindsAndPathsAreRead() throws {
    #expect(try TestReport.parse("junit=out/a.xml") == TestReport(kind: .junit, path: "out/a.xml"))
    #expect(try TestReport.parse("TAP=x=y.tap") == TestReport(kind: .tap, path: "x=y.tap"))
    #expect(throws: UsageError.self) { try TestReport.parse("html=a.html") }
    #expect(throws: UsageError.self) { try TestReport.parse("json=") }
    #expect(throws: UsageError.self) { try TestReport.parse("junit") }
  }
}
