import SNMShell
import Testing

@testable import snm

/// `snm test` and `snm check` read the shared OPTIONS and their own from the one table.
@Suite struct TestCommandLineTests {
  @Test func jobsReportsOptionsAndPaths() throws {
    let invocation = try CommandLineParser.parse([
      "test", "--jobs", "4", "--report", "junit=out.xml", "--report=tap=out.tap", "--var", "n=3",
      "--quiet", "smoke", "extra/one.snm",
    ])
    guard case .test(let run) = invocation else {
      Issue.record("expected snm test, got \(invocation)")
      return
    }
    #expect(run.jobs == 4)
    #expect(run.reports.map(\.kind) == [.junit, .tap])
    #expect(run.options.variables == [.init(name: "n", value: "3")])
    #expect(run.options.quiet)
    #expect(run.paths == ["smoke", "extra/one.snm"])
  }

  @Test(arguments: [
    (["--jobs", "0", "a.snm"], "option '--jobs' needs a number from 1 to 64, not '0'"),
    (["--jobs"], "option '--jobs' needs a value: N"),
    (["-c", "echo 1"], "'snm test' takes files, not -c"),
    ([], "'snm test' needs .snm files or directories to test"),
    (["--fromat", "json", "a.snm"], "unknown option '--fromat' (did you mean '--format'?)"),
  ])
  func usageErrors(_ arguments: [String], _ message: String) {
    #expect(throws: UsageError(message)) { try CommandLineParser.parse(["test"] + arguments) }
  }

  @Test func checkTakesNoJobs() {
    #expect(throws: UsageError("unknown option '--jobs'")) {
      try CommandLineParser.parse(["check", "--jobs", "2", "a.snm"])
    }
  }

  @Test func helpIsNotAnError() throws {
    #expect(try CommandLineParser.parse(["test", "--help"]) == .help(.test))
    #expect(try CommandLineParser.parse(["check", "--help"]) == .help(.check))
  }
}
