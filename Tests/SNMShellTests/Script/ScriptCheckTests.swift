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
}
