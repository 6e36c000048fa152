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

  /// A file's text as `load` takes it, its bytes checked in place, is what
  /// `String(data:encoding:)` made of it before: the same bytes (a first byte order mark left
  /// out, a second kept), and refused as not text exactly when that refused it.
  @Test func aFilesTextIsWhatStringOfDataMadeOfIt() {
    let bom: [UInt8] = [0xEF, 0xBB, 0xBF]
    let text = Array("from walk_request insert {\"message\": \"산책 🐶\"}\n".utf8)
    let inputs: [[UInt8]] = [
      [], bom, bom + bom, bom + text, bom + bom + text, text, text + bom, [0xEF, 0xBB] + text,
      text + [0xFF], bom + [0xC3], [0xED, 0xA0, 0x80] + text, Array(text.prefix(40)),
    ]
    for bytes in inputs {
      let data = Data(bytes)
      let made = String(data: data, encoding: .utf8)
      let source = try? ScriptLoader.source(of: data, path: "a.snm")
      #expect(source?.bytes == made.map { Array($0.utf8) }, "\(bytes)")
      #expect(source?.text == made, "\(bytes)")
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
