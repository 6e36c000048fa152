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
      let source = try? ScriptLoader.source(of: bytes, path: "a.snm")
      #expect(source?.bytes == made.map { Array($0.utf8) }, "\(bytes)")
      #expect(source?.text == made, "\(bytes)")
    }
  }

  /// `load` reads a file's bytes into the array that keeps them: the same bytes Foundation reads,
  /// at every size around its first read's room, and nil where Foundation gives nil.
  @Test func aFilesBytesAreReadWhole() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "snm-contents-\(UInt32.random(in: .min ... .max))")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    for size in [0, 1, 2, 4_095, 4_096, 65_536, 65_537, 200_003] {
      let path = folder.appendingPathComponent("\(size).snm").path
      let bytes = (0..<size).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
      #expect(FileManager.default.createFile(atPath: path, contents: Data(bytes)))
      #expect(ScriptLoader.contents(of: path) == bytes, "\(size) bytes")
      #expect(
        ScriptLoader.contents(of: path).map { Data($0) }
          == FileManager.default.contents(atPath: path))
    }
    #expect(ScriptLoader.contents(of: folder.appendingPathComponent("missing.snm").path) == nil)
    #expect(ScriptLoader.contents(of: folder.path) == nil)
    #expect(FileManager.default.contents(atPath: folder.path) == nil)
    #expect(ScriptLoader.contents(of: "/dev/null") == [])
  }

  /// A pipe (`/dev/stdin` fed by `generate |`, `<(...)`) is read to its end, past a pipe's buffer.
  @Test func aPipeIsReadToItsEnd() throws {
    var ends: [Int32] = [0, 0]
    #expect(pipe(&ends) == 0)
    let (readEnd, writeEnd) = (ends[0], ends[1])
    let bytes = (0..<200_003).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
    let writer = Thread {
      bytes.withUnsafeBytes { raw in
        var done = 0
        while done < raw.count {
          let wrote = write(writeEnd, raw.baseAddress.unsafelyUnwrapped + done, raw.count - done)
          if wrote <= 0 { break }
          done += wrote
        }
      }
      close(writeEnd)
    }
    writer.start()
    #expect(ScriptLoader.contents(of: "/dev/fd/\(readEnd)") == bytes)
    close(readEnd)
  }

  @Test func runPathsResolveAgainstTheIncludingFile() {
    #expect(ScriptLoader.resolve("lib/b.snm", from: "smoke/a.snm") == "smoke/lib/b.snm")
    #expect(ScriptLoader.resolve("../c.snm", from: "smoke/lib/b.snm") == "smoke/c.snm")
    #expect(ScriptLoader.resolve("./x.snm", from: nil) == "x.snm")
    #expect(ScriptLoader.resolve("/abs/x.snm", from: "smoke/a.snm") == "/abs/x.snm")
    #expect(ScriptLoader.resolve("../../x.snm", from: "a.snm") == "../../x.snm")
  }
}
