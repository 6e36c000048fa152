import Foundation
import Testing

@testable import SNMShell

@Suite struct TestCommandLineTests {
  @Test func jobsReportsOptionsAndPaths() throws {
    let line = try TestCommandLine.parse([
      "--jobs", "4", "--report", "junit=out.xml", "--report=tap=out.tap", "--var", "n=3",
      "--quiet", "smoke", "extra/one.snm",
    ])
    #expect(line.jobs == 4)
    #expect(line.reports.map(\.kind) == [.junit, .tap])
    #expect(line.options.variables == [.init(name: "n", value: "3")])
    #expect(line.options.quiet)
    #expect(line.paths == ["smoke", "extra/one.snm"])
    #expect(line.options.files.isEmpty)
  }

  @Test(arguments: [
    (["--jobs", "0", "a.snm"], "option '--jobs' needs a number from 1 to 64, not '0'"),
    (["--jobs"], "option '--jobs' needs a value: N"),
    (["-c", "echo 1"], "'snm test' takes files, not -c"),
    ([], "'snm test' needs .snm files or directories to test"),
    (["--fromat", "json", "a.snm"], "unknown option '--fromat' (did you mean '--format'?)"),
  ])
  func usageErrors(_ arguments: [String], _ message: String) {
    #expect(throws: UsageError(message)) { try TestCommandLine.parse(arguments) }
  }

  @Test func checkTakesNoJobs() {
    #expect(throws: UsageError("unknown option '--jobs'")) {
      try TestCommandLine.parse(["--jobs", "2", "a.snm"], command: "check")
    }
  }

  @Test func helpIsNotAnError() throws {
    #expect(try TestCommandLine.parse(["--help"]).help)
  }

  @Test func directoriesGiveTheirScriptsInPathOrderWithoutHelpers() throws {
    let directory = try ScriptDirectory([
      "b.snm": "", "a.snm": "", "sub/c.snm": "", "sub/B.snm": "", "_lib/helper.snm": "",
      ".hidden/x.snm": "", "notes.txt": "", "sub/_skip.snm": "",
    ])
    defer { directory.remove() }
    let files = try ScriptFiles.collect([directory.path, directory.file("a.snm")])
    #expect(
      files.map { $0.replacingOccurrences(of: directory.path + "/", with: "") } == [
        "a.snm", "b.snm", "sub/B.snm", "sub/c.snm",
      ])
    #expect(throws: UsageError("no such file or directory 'nowhere'")) {
      try ScriptFiles.collect(["nowhere"])
    }
  }

  @Test func runPathsResolveAgainstTheIncludingFile() {
    #expect(ScriptLoader.resolve("lib/b.snm", from: "smoke/a.snm") == "smoke/lib/b.snm")
    #expect(ScriptLoader.resolve("../c.snm", from: "smoke/lib/b.snm") == "smoke/c.snm")
    #expect(ScriptLoader.resolve("./x.snm", from: nil) == "x.snm")
    #expect(ScriptLoader.resolve("/abs/x.snm", from: "smoke/a.snm") == "/abs/x.snm")
    #expect(ScriptLoader.resolve("../../x.snm", from: "a.snm") == "../../x.snm")
  }
}
