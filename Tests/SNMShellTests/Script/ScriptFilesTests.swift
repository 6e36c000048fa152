import Foundation
import Testing

@testable import SNMShell

/// Which files `snm test` and `snm check` take, and where `run` finds the files it names.
@Suite struct ScriptFilesTests {
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
