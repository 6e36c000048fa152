import Foundation
import SNMQuery
import Testing

@testable import SNMShell

/// `snm test --shard K/N`, `--timings`, `--retry` and `snm report merge`.
@Suite struct TestShardTests {
  let files = ["t/a.snm", "t/b.snm", "t/c.snm", "t/d.snm", "t/e.snm"]

  @Test func sharesAreDisjointCoverEveryFileAndKeepTheOrderGiven() throws {
    for count in 1...4 {
      var seen: [String] = []
      for index in 1...count {
        let share = TestShard(index: index, count: count).pick(files.reversed())
        #expect(share == share.sorted().reversed())
        seen += share
      }
      #expect(seen.sorted() == files)
    }
    #expect(TestShard(index: 1, count: 2).pick(files) == ["t/a.snm", "t/c.snm", "t/e.snm"])
  }

  @Test func timingsPutTheLongestFirstWhereLeastTimeIs() {
    let seconds = ["t/a.snm": 10.0, "t/b.snm": 4, "t/c.snm": 3, "t/d.snm": 2]
    let first = TestShard(index: 1, count: 2).pick(files, seconds: seconds)
    let second = TestShard(index: 2, count: 2).pick(files, seconds: seconds)
    // a 10, e 4.75 (the average), b 4, c 3, d 2: a | e, b, c | d to the first (10 < 11.75).
    #expect(first == ["t/a.snm", "t/d.snm"])
    #expect(second == ["t/b.snm", "t/c.snm", "t/e.snm"])
  }

  @Test(arguments: ["0/2", "3/2", "1/0", "a/b", "1", "1/2/3", ""])
  func badShardsAreUsageErrors(_ text: String) {
    #expect(throws: UsageError.self) { try TestShard.parse(text) }
  }

  @Test func idempotentFilesAreMarkedInTheirLeadingComments() {
    let cases = [
      ("# snm: idempotent\nlogin\n", true), ("\n# a test\n-- snm idempotent\n", true),
      ("login\n# snm: idempotent\n", false), ("# idempotent\n", false),
      ("# snm: idempotent please\n", false),
    ]
    for (text, marked) in cases {
      #expect(TestRunner.isIdempotent(Source(text: text, fileName: "t.snm")) == marked, "\(text)")
    }
  }

  @Test func mergedReportsKeepEveryFileOnceInTheOrderOfTheReports() throws {
    let directory = NSTemporaryDirectory() + "snm-merge-" + UUID().uuidString
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: directory) }
    var failed = ScriptResult(
      path: "t/b.snm", exitCode: .failure,
      failures: [
        ScriptFailure(
          kind: .expectation, location: "t/b.snm:2:1", statement: "expect rows 1",
          message: "expectation failed", expected: "1 row", found: "0 rows", text: "...")
      ], seconds: 1.5, output: "printed")
    failed.trace = ["> GET /rest/v1/dog", "< 200 (3 ms)"]
    failed.attempts = 2
    let one = [ScriptResult(path: "t/a.snm", exitCode: .success, seconds: 0.25)]
    try TestReport.Kind.json.render(one).write(
      toFile: "\(directory)/1.json", atomically: true, encoding: .utf8)
    try TestReport.Kind.json.render([failed]).write(
      toFile: "\(directory)/2.json", atomically: true, encoding: .utf8)
    let merged = try TestReportFile.merge(
      ["\(directory)/1.json", "\(directory)/2.json"],
      into: [TestReport(kind: .junit, path: "\(directory)/all.xml")])
    #expect(merged.map(\.path) == ["t/a.snm", "t/b.snm"])
    #expect(merged[1].failures == failed.failures)
    #expect(merged[1].trace == failed.trace && merged[1].attempts == 2)
    #expect(merged[1].output == "printed" && merged[1].seconds == 1.5)
    let xml = try String(contentsOfFile: "\(directory)/all.xml", encoding: .utf8)
    #expect(xml.contains("tests=\"2\" failures=\"1\""))
    #expect(xml.contains("&gt; GET /rest/v1/dog"))
    #expect(throws: UsageError.self) { try TestReportFile.read("\(directory)/all.xml") }
  }
}
