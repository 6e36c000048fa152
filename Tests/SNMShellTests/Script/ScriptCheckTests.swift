import Foundation
import SNMQuery
import Testing

@testable import SNMShell

/// A directory of script files for one test, removed by `remove()`.
struct ScriptDirectory {
  let path = NSTemporaryDirectory() + "snm-scripts-" + UUID().uuidString

  init(_ files: [String: String]) throws {
    for (name, text) in files {
      let url = URL(fileURLWithPath: path + "/" + name)
      try FileManager.default.createDirectory(
        at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
      try Data(text.utf8).write(to: url)
    }
  }

  func file(_ name: String) -> String { path + "/" + name }

  func remove() { try? FileManager.default.removeItem(atPath: path) }

  /// Checks `name` as `snm check` does; the rendered diagnostics with the directory left out.
  func check(_ name: String, variables: Set<String> = []) throws -> (ScriptCheck, String) {
    let loader = ScriptLoader()
    let check = ScriptCheck.check(
      file: try loader.load(file(name)), variables: variables, loader: loader)
    return (check, check.rendered(colored: false).replacingOccurrences(of: path + "/", with: ""))
  }
}

@Suite struct ScriptCheckTests {
  @Test func aCycleThroughRunIsOneErrorNamingTheChain() throws {
    let directory = try ScriptDirectory([
      "main.snm": "let x = 1\nrun lib/b.snm\n",
      "lib/b.snm": "echo 'in b: $x'\nrun ../c.snm\n",
      "c.snm": "echo 'in c'\nrun lib/b.snm\n",
    ])
    defer { directory.remove() }
    let (check, text) = try directory.check("main.snm")
    #expect(check.errorCount == 1)
    #expect(
      text == """
        c.snm:2:5: error: 'run' would loop forever: main.snm -> lib/b.snm -> c.snm -> lib/b.snm
        run lib/b.snm
            ^~~~~~~~~

        """)
  }

  /// The rest of a file after a `run` of a file made since its check is checked from the `run`
  /// on: the text before it is not read again (it was parsed from the file's start each time,
  /// its statements before the `run` then left out). Shown with a bracket left open before the
  /// `run`: read from the start, it took the lines after the `run` into its statement, and the
  /// name bound nowhere after it was not refused.
  @Test func theRestAfterARunIsCheckedFromTheRunOn() {
    let text = "echo [1,\nrun gen.snm\necho 'after'\necho '$made $mdae'\n"
    let source = Source(text: text, fileName: "main.snm")
    let offset = text.utf8.count - "\necho 'after'\necho '$made $mdae'\n".utf8.count
    let rest = ScriptCheck.checkRest(
      of: source, from: offset, file: "main.snm", variables: ["made"], loader: ScriptLoader(),
      environment: [:])
    #expect(rest.errorCount == 1)
    #expect(rest.firstError?.location == "main.snm:4:13")
    #expect(rest.firstError?.message == "undefined variable '$mdae'")
  }
}

@Suite struct EarlyCheckAcrossFilesTests {
  /// `snm a.snm b.snm`: a `run` in a.snm of a file not there yet may bind any variable, so b.snm
  /// using one bound nowhere is left to the run (b.snm was refused before anything ran); a
  /// variable used before that `run` is still refused.
  @Test func aRunOfAFileNotThereYetLeavesTheFilesAfterItsVariablesToTheRun() throws {
    let directory = try ScriptDirectory([
      "writes.snm": "echo 'let made = 7'\nrun gen.snm\n",
      "uses.snm": "echo '$made'\n",
      "early.snm": "echo '$made'\n",
    ])
    defer { directory.remove() }
    func refused(_ names: [String]) -> String? {
      var options = ShellOptions()
      options.noColor = true
      var early = EarlyCheck(options: options, environment: [:])
      early.check(files: names.map(directory.file))
      let said = OutputWriter()
      return early.refusal(errors: said).map { _ in said.captured }
    }
    #expect(refused(["writes.snm", "uses.snm"]) == nil)
    let text = try #require(refused(["early.snm", "writes.snm", "uses.snm"]))
    #expect(text.contains("early.snm:1:7: error: undefined variable '$made'"), "\(text)")
    #expect(!text.contains("uses.snm"), "\(text)")
  }
}
